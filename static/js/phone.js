/* A phone's screen for the game, not the chrome (issue 32, item 4):
 * - on a narrow screen the pinned acting order starts folded (its summary opens it on a tap), so what stays
 *   pinned at the top is the round and phase and one line;
 * - a choice waiting on this person (a part marked data-choice: declare, defend, roll, where to run) is
 *   scrolled into view once, when it newly appears; smoothly unless the person prefers reduced motion, and
 *   not while they are typing in a field elsewhere on the page.
 * It reads the page as the server drew it: no request of its own.
 */
(function () {
  "use strict";
  var NARROW = "(max-width: 899px)";
  var shown = {};      // the waiting choices seen on screen at the last look, by key
  var looked = false;  // the first look (the page as it opened) records what is there without scrolling

  function me() { var live = document.getElementById("live"); return live ? live.dataset.me : ""; }
  function visible(el) { return el.getClientRects().length > 0 && !el.closest("[hidden]"); }
  // The choices waiting on this person now: visible parts marked data-choice with a button still to press.
  function waiting() {
    var who = me(), found = [];
    document.querySelectorAll("[data-choice]").forEach(function (el) {
      var forUser = el.dataset.forUser;
      if (forUser && forUser !== who) { return; }
      if (visible(el) && el.querySelector("button:not([disabled]), summary")) { found.push(el); }
    });
    return found;
  }
  function key(el) { return (el.id || el.dataset.testid || "") + "|" + el.dataset.choice; }
  // Someone typing in a field outside the choice keeps their place.
  function typingElsewhere(el) {
    var active = document.activeElement;
    return Boolean(active) && active.matches("input:not([type=checkbox]):not([type=radio]), textarea, select") &&
      !el.contains(active);
  }
  function bringIntoView() {
    var now = {}, arrived = null;
    waiting().forEach(function (el) {
      var k = key(el);
      now[k] = true;
      if (!shown[k] && !arrived) { arrived = el; }
    });
    shown = now;
    if (!looked) { looked = true; return; }
    if (!arrived || typingElsewhere(arrived)) { return; }
    var still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    arrived.scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
  }
  function foldOrder() {
    var peek = document.querySelector(".order-peek");
    if (peek && window.matchMedia(NARROW).matches) { peek.open = false; }
  }

  document.addEventListener("DOMContentLoaded", function () { foldOrder(); soon(); });
  // After the other listeners (a rule system's script shows each part to the person it is for) have had their turn.
  function soon() { setTimeout(bringIntoView, 0); }
  document.addEventListener("htmx:wsAfterMessage", soon);
  document.addEventListener("htmx:afterSettle", soon);
})();
