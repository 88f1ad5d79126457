/* Who is here (combat.presence), on every live page (an encounter's, a saga's):
 * - beat on the page's socket when it opens, every data-heartbeat seconds (the region says how often),
 *   and at once when the tab is hidden or shown again (visibilitychange), saying whether it is shown;
 * - drop a region older than the one shown (data-stamp: two Daphnes' pushes can cross);
 * - show "gone since" in the device's own time, and mark what belongs to a gone person (a card, a
 *   declaration waiting: [data-owner]) so the storyguide sees whose turn waits on someone gone; one who
 *   has not opened the page yet is marked "not here", not "gone";
 * - say at the top, in the region, whose move waits on someone gone, away (only hidden tabs: the phone in a
 *   pocket) or not here: each [data-waits] (a declaration still to make, the fighter whose turn it is) of
 *   such an owner, by the name it carries.
 */
(function () {
  "use strict";
  var STAMP = /id="presence"[^>]*data-stamp="(\d+)"/;
  var socket = null, timer = null, period = 0;

  function region() { return document.getElementById("presence"); }
  function every() {
    var el = region(), seconds = el ? parseInt(el.dataset.heartbeat || "10", 10) : 10;
    return Math.max(1, seconds || 10) * 1000;
  }
  function beat() {
    if (!socket) { return; }
    socket.send(JSON.stringify({ type: "heartbeat", visible: document.visibilityState !== "hidden" }));
  }
  function schedule() { clearInterval(timer); period = every(); timer = setInterval(beat, period); }
  function older(a, b) {  // nanosecond stamps as decimal strings: compare without losing digits
    return a.length < b.length || (a.length === b.length && a < b);
  }
  function mark() {
    var el = region();
    if (!el) { return; }
    el.querySelectorAll("time[datetime]").forEach(function (time) {
      var at = new Date(time.getAttribute("datetime"));
      if (!isNaN(at)) { time.textContent = at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }); }
    });
    var gone = {}, absent = {}, away = {};  // gone since a time, never here, or only hidden tabs
    el.querySelectorAll("[data-person][data-state=gone]").forEach(function (item) {
      (item.querySelector("time") ? gone : absent)[item.dataset.person] = true;
    });
    el.querySelectorAll("[data-person][data-state=away]").forEach(function (item) { away[item.dataset.person] = true; });
    document.querySelectorAll("[data-owner]").forEach(function (item) {
      item.classList.toggle("owner-gone", Boolean(gone[item.dataset.owner]));
      item.classList.toggle("owner-absent", Boolean(absent[item.dataset.owner]));
      item.classList.toggle("owner-away", Boolean(away[item.dataset.owner]));
    });
    waiting(el, gone, absent, away);
  }
  function waiting(el, gone, absent, away) {  // whose move waits on someone who is not at the table
    var said = { gone: [], away: [], absent: [] };  // the gone first, then the away, then those not come yet
    document.querySelectorAll("[data-owner][data-waits]").forEach(function (item) {
      var owner = item.dataset.owner;
      var state = gone[owner] ? "gone" : away[owner] ? "away" : absent[owner] ? "absent" : "";
      item.classList.toggle("waits-on-gone", Boolean(state));
      if (!state) { return; }
      var words = item.dataset.waits + (state === "absent" ? " (not here)" : " (" + state + ")");
      if (said[state].indexOf(words) < 0) { said[state].push(words); }
    });
    var names = said.gone.concat(said.away, said.absent);
    var note = el.querySelector(".presence-waits");
    if (!note) { return; }
    note.textContent = names.length ? "Waiting on someone not here: " + names.join(", ") : "";
    note.hidden = names.length === 0;
  }

  document.addEventListener("htmx:wsOpen", function (event) {
    socket = event.detail.socketWrapper;
    beat();
    schedule();
  });
  document.addEventListener("htmx:wsClose", function () { clearInterval(timer); timer = null; });
  document.addEventListener("visibilitychange", beat);
  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    var match = STAMP.exec(event.detail.message), el = region();
    if (match && el && older(match[1], el.dataset.stamp || "0")) { event.preventDefault(); }
  });
  document.addEventListener("htmx:afterSettle", mark);  // a panel an answer redrew: its marks again
  document.addEventListener("htmx:wsAfterMessage", function () {
    mark();
    if (timer && every() !== period) { schedule(); }  // the region says to beat at another pace
  });
})();
