/* Covenant's live client, on top of htmx's websocket extension (hx-ws-2):
 * - on open, ask for everything after the last sequence number this page has shown;
 * - drop frames already seen; ask again when a gap shows up;
 * - drop an event already in the log (a replay and a push can overlap);
 * - show "Reconnecting…" while the socket is down; reconnect on any close but 4403
 *   (the extension itself retries only after 1006, 1011, 1012, 1013);
 * - when the round or phase changes, tell the page (covenant:phase) so per-person parts
 *   (a player's declaration forms) fetch themselves again;
 * - keep long-lived storyguide forms on the current version;
 * - mark this person's own combatant cards ("mine": first in their side, outlined) and show
 *   their levels in a strip at the bottom of a phone screen.
 */
(function () {
  "use strict";
  var FRAME = /id="live-seq"[^>]*data-first-seq="(\d+)" data-last-seq="(\d+)"( data-replay="1")?/;
  var EXTENSION_RETRIES = [1006, 1011, 1012, 1013];
  var FORBIDDEN = 4403;
  var retries = 0;
  var awaitingReplay = false;

  function root() { return document.getElementById("live"); }
  function seen() { var el = root(); return el ? parseInt(el.dataset.lastSeq || "0", 10) : 0; }
  function setSeen(n) { var el = root(); if (el) { el.dataset.lastSeq = String(n); } }
  function sign(text) {
    var el = document.getElementById("live-sign");
    if (!el) { return; }
    if (text) { el.textContent = text; el.hidden = false; } else { el.hidden = true; }
  }
  function toast(text) {
    var box = document.getElementById("toasts");
    if (!box) { return; }
    var item = document.createElement("div");
    item.className = "toast";
    item.setAttribute("role", "alert");
    item.dataset.testid = "toast";
    item.textContent = text;
    box.appendChild(item);
    setTimeout(function () { item.remove(); }, 8000);
  }
  function resume(socket) {
    awaitingReplay = true;
    socket.send(JSON.stringify({ type: "resume", last_seq: seen() }));
  }
  function phaseKey() {
    var status = document.getElementById("encounter-status");
    return status ? status.dataset.round + ":" + status.dataset.phase + ":" + status.dataset.status : "";
  }
  var lastPhaseKey = null;
  var frameLast = null;

  document.addEventListener("htmx:wsOpen", function (event) {
    retries = 0;
    sign(null);
    resume(event.detail.socketWrapper);
  });

  document.addEventListener("htmx:wsClose", function (event) {
    var code = event.detail.event.code;
    if (code === FORBIDDEN) { sign("You are no longer in this saga: log in again."); return; }
    sign("Reconnecting…");
    if (EXTENSION_RETRIES.indexOf(code) < 0) {
      var wrapper = event.detail.socketWrapper;
      var delay = Math.random() * 1000 * Math.pow(2, Math.min(retries, 5));
      retries += 1;
      setTimeout(function () { wrapper.reconnect(); }, delay);
    }
  });

  document.addEventListener("htmx:wsError", function () { sign("Reconnecting…"); });

  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    var message = event.detail.message;
    if (message.charAt(0) === "{") {
      event.preventDefault();
      try { toast(JSON.parse(message).error || "Something went wrong."); } catch (e) { toast("Something went wrong."); }
      return;
    }
    var match = FRAME.exec(message);
    if (!match) { return; }
    var first = parseInt(match[1], 10), last = parseInt(match[2], 10), replay = Boolean(match[3]);
    if (replay) { awaitingReplay = false; frameLast = last; return; }
    if (awaitingReplay || last <= seen()) { event.preventDefault(); return; }
    if (first > seen() + 1) {  // a gap: ask for what is missing instead of showing this frame
      event.preventDefault();
      resume(event.detail.socketWrapper);
      return;
    }
    frameLast = Math.max(seen(), last);
  });

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var fragment = event.detail.fragment;
    if (!fragment || !fragment.querySelector) { return; }
    var item = fragment.querySelector("li[id^='event-']");
    if (item && document.getElementById(item.id)) { event.detail.shouldSwap = false; }
  });

  document.addEventListener("htmx:wsAfterMessage", function () {
    if (frameLast !== null) { setSeen(frameLast); frameLast = null; }
    var status = document.getElementById("encounter-status");
    if (status) {
      document.querySelectorAll("form[data-live-version] input[name=expected_version]").forEach(function (input) {
        input.value = status.dataset.version;
      });
    }
    var key = phaseKey();
    if (lastPhaseKey !== null && key !== lastPhaseKey) {
      document.body.dispatchEvent(new CustomEvent("covenant:phase", { bubbles: true }));
    }
    lastPhaseKey = key;
  });

  function markMine() {
    var el = root();
    var me = el ? el.dataset.me : "";
    var strip = document.getElementById("me-strip");
    var lines = [];
    document.querySelectorAll("#combatants article.card").forEach(function (card) {
      var mine = Boolean(me) && card.dataset.owner === me;
      card.classList.toggle("mine", mine);
      if (!mine) { return; }
      var name = card.querySelector(".name"), fatigue = card.querySelector("[data-testid=fatigue-level]");
      var body = card.querySelector("[data-testid=body-level]"), penalty = card.querySelector("[data-testid=penalty]");
      lines.push([name, fatigue, body].map(function (node) { return node ? node.textContent.trim() : ""; }).join(" · ") +
        (penalty ? " · " + penalty.textContent.trim().split(" ")[0] : ""));
    });
    if (strip) { strip.textContent = lines.join("  |  "); strip.hidden = lines.length === 0; }
  }

  document.addEventListener("htmx:wsAfterMessage", markMine);
  document.addEventListener("DOMContentLoaded", function () { lastPhaseKey = phaseKey(); markMine(); });
})();
