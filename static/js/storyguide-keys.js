/* The storyguide's keyboard shortcuts on a control panel (each rule system lists its keys on the page):
 * a letter key presses the first enabled, visible button whose data-key lists it, or focuses the first
 * such field (say, a reason to type). A button may list several letters ("r n": roll, or the next step).
 * Never while typing in a field, nor with Ctrl, Alt or Meta held (the browser's own shortcuts).
 * A key pressed twice sends the command twice at most; the server applies it once (expected version).
 * Then the command's result is brought into view, wherever the page was scrolled to: a refusal in the form's
 * error slot (or the note that it was not sent), else, once the frame with the new version is in, what the
 * control's data-result names (the phase's preview), by default the newest line of the log. A field a key
 * focuses (the undo's reason) waits for its form to be sent. Smooth, unless the person prefers reduced motion.
 * It also keeps --status-height, the sticky status bar's, for combat.css's controls column below it.
 */
(function () {
  "use strict";
  var LETTER = /^[a-z]$/;
  var NEWEST_LINE = "#event-log > li.event:last-child";
  var awaited = null;  // the command sent from a key: {form, result, version, answered}

  function typing(target) {
    if (!target || !target.closest) { return false; }
    return Boolean(target.isContentEditable || target.closest("input, textarea, select, [contenteditable]"));
  }

  function usable(element) {
    return !element.disabled && !element.closest("[hidden]") && element.getClientRects().length > 0;
  }

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.repeat || event.isComposing) { return; }
    if (event.ctrlKey || event.altKey || event.metaKey || typing(event.target)) { return; }
    var key = (event.key || "").toLowerCase();
    if (!LETTER.test(key)) { return; }
    var targets = document.querySelectorAll("[data-key~='" + key + "']");
    for (var i = 0; i < targets.length; i += 1) {
      var element = targets[i];
      if (!usable(element)) { continue; }
      event.preventDefault();
      awaitResult(element);
      if (element.tagName === "BUTTON") { element.click(); } else { element.focus(); }
      return;
    }
  });

  function version() {
    var status = document.getElementById("encounter-status");
    return status ? status.dataset.version : "";
  }

  function awaitResult(element) {
    var form = element.form || element.closest("form"), holder = element.closest("[data-result]");
    var result = holder ? holder.dataset.result : NEWEST_LINE;
    awaited = form ? { form: form, result: result, version: null, answered: false } : null;
  }

  // The height a result has to be seen in: its scrolling column's (the controls column on a wide screen) or
  // the window's, below the sticky bars (its scroll-margin-top).
  function room(element) {
    var box = element.parentElement;
    while (box && box !== document.body) {
      var overflow = getComputedStyle(box).overflowY;
      if ((overflow === "auto" || overflow === "scroll") && box.scrollHeight > box.clientHeight) { break; }
      box = box.parentElement;
    }
    var height = box && box !== document.body ? box.clientHeight : window.innerHeight;
    return height - (parseFloat(getComputedStyle(element).scrollMarginTop) || 0);
  }

  // A result taller than its room (a preview of many rolls) is shown down to its own next step, its
  // Confirm, with as much of it above as fits; a shorter one whole.
  function bringIntoView(element) {
    if (!element) { return; }
    var reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    var behavior = reduced ? "auto" : "smooth";
    var next = element.querySelector("button[data-key]");
    if (next && element.getBoundingClientRect().height > room(element)) {
      next.scrollIntoView({ block: "end", behavior: behavior });
    } else {
      element.scrollIntoView({ block: "nearest", behavior: behavior });
    }
  }

  function refusal(target) {  // the (redrawn) form's error slot with the message in it, or the "not sent" note
    var slot = target && target.id ? document.getElementById(target.id) : target;
    if (slot && slot.textContent.trim()) { return slot; }
    var note = awaited.form.nextElementSibling;
    return note && note.classList.contains("not-sent") ? note : null;
  }

  function resultIn() {
    if (!awaited || !awaited.answered || version() === awaited.version) { return; }
    var result = awaited.result;
    awaited = null;
    bringIntoView(document.querySelector(result));
  }

  // The answer is read from the request itself: a push may have taken its form out of the page meanwhile,
  // and htmx's events on a form no longer in the page do not reach the document.
  document.addEventListener("htmx:beforeSend", function (event) {
    var elt = event.detail.elt, xhr = event.detail.xhr, target = event.detail.target;
    if (!awaited || !xhr || !elt || (elt !== awaited.form && !awaited.form.contains(elt))) { return; }
    var sent = awaited;
    sent.version = version();
    xhr.addEventListener("loadend", function () {
      setTimeout(function () {  // once htmx (or live.js's note) has put the answer in its place
        if (awaited !== sent) { return; }
        if (xhr.status >= 200 && xhr.status < 400) {
          sent.answered = true;
          resultIn();
          return;
        }
        var refused = refusal(target);
        awaited = null;
        bringIntoView(refused);
      }, 0);
    });
  });

  function measureStatus() {
    var status = document.getElementById("encounter-status");
    if (status) { document.documentElement.style.setProperty("--status-height", status.offsetHeight + "px"); }
  }

  document.addEventListener("htmx:wsAfterMessage", function () { measureStatus(); resultIn(); });
  document.addEventListener("DOMContentLoaded", measureStatus);
  window.addEventListener("resize", measureStatus);
})();
