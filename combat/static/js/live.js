/* Covenant's live client, on top of htmx's websocket extension (hx-ws-2):
 * - on open, ask for everything after the last sequence number this page has shown;
 * - drop frames already seen; ask again when a gap shows up;
 * - drop an event already in the log (a replay and a push can overlap);
 * - show "Reconnecting…" while the socket is down; reconnect on any close but 4403
 *   (the extension itself retries only after 1006, 1011, 1012, 1013);
 * - reconnect at once when the device comes back (the browser goes `online`, or the page becomes
 *   visible while the socket is down) instead of waiting out the extension's backoff (up to 64 s);
 *   a socket that still looks open when the network comes back is asked to resume, and replaced if
 *   no answer comes (it may belong to the network that went away);
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
  var PROBE_MS = 8000;        // an open socket that does not answer a resume within this is replaced
  var retries = 0;
  var awaitingReplay = false;
  var wrapper = null;          // the extension's socket wrapper (reconnect(), send())
  var live = null;             // the socket that opened last
  var connecting = false;      // a socket is being opened (htmx:wsConnecting) and has not opened or failed
  var forbidden = false;

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

  function isOpen(socket) { return Boolean(socket) && socket.readyState === 1; }  // WebSocket.OPEN

  document.addEventListener("htmx:wsConnecting", function () { connecting = true; });

  document.addEventListener("htmx:wsOpen", function (event) {
    retries = 0;
    connecting = false;
    if (live && live !== event.detail.event.target) { live.covenantRetired = true; }
    live = event.detail.event.target;
    wrapper = event.detail.socketWrapper;
    sign(null);
    resume(event.detail.socketWrapper);
  });

  document.addEventListener("htmx:wsClose", function (event) {
    var code = event.detail.event.code, socket = event.detail.event.target;
    wrapper = event.detail.socketWrapper;
    // The extension's reconnect() closes an open socket after it has started the next one: that close
    // is not a drop (a retry timer left over from before a wake-up does this once).
    if ((socket === live && connecting) || socket.covenantRetired) { return; }
    if (socket !== live) { connecting = false; }  // an attempt that never opened
    if (code === FORBIDDEN) { forbidden = true; sign("You are no longer in this saga: log in again."); return; }
    sign("Reconnecting…");
    if (EXTENSION_RETRIES.indexOf(code) < 0) {
      var delay = Math.random() * 1000 * Math.pow(2, Math.min(retries, 5));
      retries += 1;
      setTimeout(function () { if (!connecting && !isOpen(live)) { reconnectNow(); } }, delay);
    }
  });

  // Open a new socket now, unless one is open or being opened; the new one resumes after the last seq.
  function reconnectNow() {
    if (!wrapper || forbidden || connecting) { return; }
    wrapper.reconnect();
  }

  // The network is back: reconnect now, or make sure the socket that looks open still answers.
  function online() {
    if (!wrapper || forbidden) { return; }
    if (!isOpen(live)) { reconnectNow(); return; }
    var socket = live;
    resume(wrapper);
    setTimeout(function () {
      if (awaitingReplay && socket === live && isOpen(socket) && !connecting) {
        sign("Reconnecting…");
        wrapper.reconnect();  // it looked open but is dead: replace it
      }
    }, PROBE_MS);
  }

  window.addEventListener("online", online);
  // The screen is on again or the tab shown: if the socket is down, do not wait for the next retry.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && !isOpen(live)) { reconnectNow(); }
  });

  document.addEventListener("htmx:wsError", function (event) {
    var socket = event.detail.error && event.detail.error.target;
    if (socket && (socket.covenantRetired || (socket === live && connecting))) { return; }  // a discarded socket
    sign("Reconnecting…");
  });

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
