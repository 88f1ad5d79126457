/* Keep the screen on while the encounter runs: a phone that sleeps between a player's turns drops its socket.
 * The Screen Wake Lock API: the lock is asked for while the encounter is running (#encounter-status's
 * data-status, which each frame swaps in), the page is visible and the person has not switched it off; the
 * browser lets it go when the page is hidden, so it is asked for again when the page is visible once more, and
 * it is let go when the encounter ends or the person unticks "Keep screen on" (#awake). The choice is
 * remembered in this browser (localStorage, key covenant-awake). Without the API (an old browser, or a page
 * that is not a secure context: plain http on a LAN) the page says nothing: the switch stays hidden. */
(function () {
  "use strict";
  var KEY = "covenant-awake";
  if (!window.isSecureContext || !("wakeLock" in navigator)) { return; }
  var lock = null;  // the WakeLockSentinel held, if any
  var asking = false;
  var choice = null;  // this page's choice, when the browser would not remember it

  function wanted() {  // on unless switched off in this browser
    if (choice !== null) { return choice; }
    try { return window.localStorage.getItem(KEY) !== "off"; } catch (error) { return true; }
  }

  function status() {
    var strip = document.getElementById("encounter-status");
    return strip ? strip.dataset.status : null;
  }

  function holds() {  // whether the screen should be kept on now
    return wanted() && status() === "running" && document.visibilityState === "visible";
  }

  function take() {
    if (lock || asking) { return; }
    asking = true;
    navigator.wakeLock.request("screen").then(function (sentinel) {
      asking = false;
      lock = sentinel;
      sentinel.addEventListener("release", function () { if (lock === sentinel) { lock = null; } });
      if (!holds()) { letGo(); }  // switched off, ended or hidden while it was asked for
    }, function () {
      asking = false;  // refused (a battery saver, the page hidden meanwhile): asked again when visible
    });
  }

  function letGo() {
    if (!lock) { return; }
    var sentinel = lock;
    lock = null;
    sentinel.release().catch(function () { /* already let go by the browser */ });
  }

  function update() {
    var control = document.getElementById("awake");
    if (control) {
      var state = status();
      control.hidden = !state || state === "ended";  // an ended encounter offers no control
      control.querySelector("input").checked = wanted();
    }
    if (holds()) { take(); } else { letGo(); }
  }

  document.addEventListener("change", function (event) {
    if (!event.target.closest || !event.target.closest("#awake")) { return; }
    try {
      window.localStorage.setItem(KEY, event.target.checked ? "on" : "off");
    } catch (error) {
      choice = event.target.checked;  // not remembered (private mode); obeyed on this page
    }
    update();
  });
  document.addEventListener("visibilitychange", update);
  document.addEventListener("htmx:wsAfterMessage", update);  // a frame may start or end the encounter
  window.addEventListener("storage", function (event) { if (event.key === KEY) { update(); } });  // other tabs
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", update); } else { update(); }
})();
