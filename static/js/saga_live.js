/* The saga page's live client, on htmx's websocket extension (hx-ws-2), socket /ws/sagas/<id>/
 * (combat.saga_live): each frame redraws the members, characters and encounters whole; the server sends
 * one when the socket opens, so a reconnect catches up by itself.
 * - drop a frame older than the one shown (data-stamp), and error frames (JSON) after showing them;
 * - drop a frame that shows what the page shows already (data-shown, the regions' digest): the one the
 *   server sends when the socket opens, most often. Swapping in equal regions would replace a link under
 *   the pointer between its press and its release, and the click would be lost;
 * - load the page again on 4409: this person's place in the troupe changed (made a storyguide or a player
 *   again, given the lead or passing it), and the page is drawn for their new place;
 * - show "Reconnecting…" while the socket is down; reconnect after any close but 4403 and 4409, backing off
 *   from under half a second to at most five, with jitter (the extension itself retries only after
 *   1006, 1011, 1012, 1013).
 */
(function () {
  "use strict";
  var STAMP = /id="saga-stamp"[^>]*data-stamp="(\d+)"/;
  var SHOWN = /id="saga-stamp"[^>]*data-shown="([0-9a-f]*)"/;
  var EXTENSION_RETRIES = [1006, 1011, 1012, 1013];
  var FORBIDDEN = 4403;
  var REPLACED = 4409;
  var farewell = null;  // the error frame the server sent before its 4403: why it closed
  var retries = 0;
  var forbidden = false;

  function sign(text) {
    var el = document.getElementById("live-sign");
    if (!el) { return; }
    if (text) { el.textContent = text; el.hidden = false; } else { el.hidden = true; }    // The page starts under the banner while it shows (combat.css reads --live-sign), as on an encounter's.
    document.documentElement.style.setProperty("--live-sign", el.hidden ? "0px" : el.offsetHeight + "px");
  }
  function shown() {
    var el = document.getElementById("saga-stamp");
    return el ? el.dataset.stamp || "0" : "0";
  }
  function showing(digest) {  // whether the page shows what a frame of that digest shows
    var el = document.getElementById("saga-stamp");
    return Boolean(el && digest && el.dataset.shown === digest);
  }
  function older(a, b) {  // nanosecond stamps as decimal strings: compare without losing digits
    return a.length < b.length || (a.length === b.length && a < b);
  }

  document.addEventListener("htmx:wsOpen", function () { retries = 0; sign(null); });

  document.addEventListener("htmx:wsClose", function (event) {
    var code = event.detail.event.code, wrapper = event.detail.socketWrapper;
    if (code === REPLACED) { forbidden = true; sign(farewell); window.location.reload(); return; }
    if (code === FORBIDDEN) { forbidden = true; sign(farewell || "You are no longer in this saga: log in again."); return; }
    sign("Reconnecting…");
    if (EXTENSION_RETRIES.indexOf(code) >= 0 || forbidden) { return; }
    var delay = Math.min(5000, 250 * Math.pow(2, retries)) * (0.5 + Math.random() / 2);
    retries += 1;
    setTimeout(function () { wrapper.reconnect(); }, delay);
  });

  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    var message = event.detail.message;
    if (message.charAt(0) === "{") {
      event.preventDefault();
      try {
        var said = JSON.parse(message);
        if (said.last) { farewell = said.error; }
        sign(said.error || null);
      } catch (e) { sign(null); }
      return;
    }
    var match = STAMP.exec(message), same = SHOWN.exec(message);
    if ((match && older(match[1], shown())) || (same && showing(same[1]))) { event.preventDefault(); }
  });
})();
