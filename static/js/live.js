/* Covenant's live client, on top of htmx's websocket extension (hx-ws-2):
 * - on open, ask for everything after the last sequence number this page has shown;
 * - drop frames already seen; ask again when a gap shows up;
 * - drop an event already in the log (a replay and a push can overlap), unless the copy that comes is
 *   marked undone (an undo's frame, or a replay after one, carries the lines it took back again): that
 *   copy takes the place of the line on screen, struck through;
 * - show the connection in a chip (Live / Reconnecting… / Offline) and, while it is down, a banner at
 *   the top, above the page rather than over it; reconnect on any close but 4403, and load the page again on 4409 (the seat was handed over); (the extension itself retries only after 1006, 1011,
 *   1012, 1013), both with the same backoff: the first retry within 0.4 s, then at most 1 s apart for
 *   the first ten seconds or so (a server restart), then growing to at most 5 s apart, each jittered;
 * - never lose a command silently: one made while the browser is offline is not sent, and one whose
 *   request fails on the way is reported, each with a message next to the form or button that sent it;
 * - reconnect at once when the device comes back (the browser goes `online`, or the page becomes
 *   visible while the socket is down) instead of waiting out the extension's backoff (up to 64 s);
 *   a socket that still looks open when the network comes back is asked to resume, and replaced if
 *   no answer comes (it may belong to the network that went away);
 * - when the round or phase changes, or what per-person parts depend on (the status's data-people,
 *   a digest the rule system writes, e.g. who can act; absent: empty), tell the page (covenant:phase)
 *   so those parts (a player's declaration forms) fetch themselves again;
 * - once live again after a drop, tell the page (covenant:resumed): a part whose fetch was lost
 *   meanwhile fetches itself again;
 * - keep long-lived storyguide forms on the current version;
 * - mark this person's own combatant cards ("mine": first in their side, outlined) and show
 *   their levels in a strip at the bottom of a phone screen.
 */
(function () {
  "use strict";
  var FRAME = /id="live-seq"[^>]*data-first-seq="(\d+)" data-last-seq="(\d+)"( data-replay="1")?/;
  var EXTENSION_RETRIES = [1006, 1011, 1012, 1013];
  var FORBIDDEN = 4403;
  var RESEATED = 4409;  // the storyguide's seat was handed over to or from this person: their page changes
  // Why the server closed with 4403: the error frame it sent last ("This encounter is no longer there").
  var NOT_IN_SAGA = "You are no longer in this saga: log in again.";
  var farewell = null;
  var PROBE_MS = 8000;        // an open socket that does not answer a resume within this is replaced
  var FIRST_RETRY_MS = 400, RETRY_MS = 1000, MAX_RETRY_MS = 5000, QUICK_RETRIES = 15;
  var retries = 0;
  var awaitingReplay = false;
  var wrapper = null;          // the extension's socket wrapper (reconnect(), send())
  var live = null;             // the socket that opened last
  var connecting = false;      // a socket is being opened (htmx:wsConnecting) and has not opened or failed
  var forbidden = false;

  function root() { return document.getElementById("live"); }

  // How long to wait before retry number n (0, 1, …): a ceiling, and a random point in its upper half
  // (jitter, so that the pages of a table do not all knock at the same moment).
  function backoff(n) {
    var ceiling = n === 0 ? FIRST_RETRY_MS : n < QUICK_RETRIES ? RETRY_MS :
      Math.min(MAX_RETRY_MS, RETRY_MS * Math.pow(2, n - QUICK_RETRIES + 1));
    return ceiling * (0.5 + Math.random() / 2);
  }
  if (window.htmx) { window.htmx.config.wsReconnectDelay = backoff; }  // the extension's own retries

  // The connection as the person sees it: "connected", "reconnecting" or "offline" (the browser has no
  // network, or this person may no longer join); "connecting" until the first socket opens.
  var BANNERS = {
    reconnecting: "Connection lost: reconnecting… What you send now may not reach the table.",
    offline: "You are offline: nothing you send goes to the table until the connection is back."
  };
  var CHIPS = { connecting: "Connecting…", connected: "Live", reconnecting: "Reconnecting…", offline: "Offline" };
  function connection(state, text) {
    var el = root();
    var was = el ? el.dataset.connection : null;
    if (el) { el.dataset.connection = state; }
    var chip = document.getElementById("live-chip");
    if (chip) {
      chip.dataset.state = state;
      chip.querySelector(".live-chip-text").textContent = CHIPS[state];
    }
    sign(text || BANNERS[state] || null);
    if (state === "connected") { backOnline(); }
    if (state === "connected" && (was === "reconnecting" || was === "offline")) {
      document.body.dispatchEvent(new CustomEvent("covenant:resumed", { bubbles: true }));
    }
  }
  function down() { connection(navigator.onLine === false ? "offline" : "reconnecting"); }
  function seen() { var el = root(); return el ? parseInt(el.dataset.lastSeq || "0", 10) : 0; }
  function setSeen(n) { var el = root(); if (el) { el.dataset.lastSeq = String(n); } }
  function sign(text) {
    var el = document.getElementById("live-sign");
    if (!el) { return; }
    if (text) { el.textContent = text; el.hidden = false; } else { el.hidden = true; }
    makeRoomForSign();
  }
  // While the banner is up the page and its sticky bars start below it (combat.css reads --live-sign),
  // so it covers neither the top bar nor the round and phase.
  function makeRoomForSign() {
    var el = document.getElementById("live-sign");
    var height = el && !el.hidden ? el.offsetHeight : 0;
    document.documentElement.style.setProperty("--live-sign", height + "px");
  }
  window.addEventListener("resize", makeRoomForSign);
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
    if (!status) { return ""; }
    var data = status.dataset;
    return [data.round, data.phase, data.status, data.people || ""].join(":");
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
    connection("connected");
    resume(event.detail.socketWrapper);
  });

  document.addEventListener("htmx:wsClose", function (event) {
    var code = event.detail.event.code, socket = event.detail.event.target;
    wrapper = event.detail.socketWrapper;
    // The extension's reconnect() closes an open socket after it has started the next one: that close
    // is not a drop (a retry timer left over from before a wake-up does this once).
    if ((socket === live && connecting) || socket.covenantRetired) { return; }
    if (socket !== live) { connecting = false; }  // an attempt that never opened
    if (code === RESEATED) { forbidden = true; window.location.reload(); return; }
    if (code === FORBIDDEN) { forbidden = true; connection("offline", farewell || NOT_IN_SAGA); return; }
    down();
    if (EXTENSION_RETRIES.indexOf(code) < 0) {
      var delay = backoff(retries);
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
    connection("reconnecting");
    if (!isOpen(live)) { reconnectNow(); return; }
    var socket = live;
    resume(wrapper);
    setTimeout(function () {
      if (awaitingReplay && socket === live && isOpen(socket) && !connecting) {
        connection("reconnecting");
        wrapper.reconnect();  // it looked open but is dead: replace it
      }
    }, PROBE_MS);
  }

  window.addEventListener("online", online);
  // The browser says the network is gone: say so at once, without waiting for the socket to notice.
  window.addEventListener("offline", function () { if (!forbidden) { connection("offline"); } });
  // The screen is on again or the tab shown: if the socket is down, do not wait for the next retry.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && !isOpen(live)) { reconnectNow(); }
  });

  document.addEventListener("htmx:wsError", function (event) {
    var socket = event.detail.error && event.detail.error.target;
    if (socket && (socket.covenantRetired || (socket === live && connecting))) { return; }  // a discarded socket
    if (!forbidden) { down(); }
  });

  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    var message = event.detail.message;
    if (message.charAt(0) === "{") {
      event.preventDefault();
      try {
        var said = JSON.parse(message);
        if (said.last) { farewell = said.error; } else { toast(said.error || "Something went wrong."); }
      } catch (e) { toast("Something went wrong."); }
      return;
    }
    var match = FRAME.exec(message);
    if (!match) { return; }
    var first = parseInt(match[1], 10), last = parseInt(match[2], 10), replay = Boolean(match[3]);
    if (replay) { awaitingReplay = false; frameLast = last; connection("connected"); return; }
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
    var shown = item && document.getElementById(item.id);
    if (!shown) { return; }
    event.detail.shouldSwap = false;
    // A line an undo took back comes again, marked: it takes the place of the one on screen.
    if (item.classList.contains("undone")) { shown.replaceWith(item); }
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

  // A command is any request but a GET. While the browser is offline it is not sent; if its request
  // fails on the way, that is said. Either way the message stands right after the form or button.
  var NOT_SENT_OFFLINE = "Not sent: you are offline. Send it again once the connection is back.";
  var NOT_SENT_FAILED = "Not sent: the server could not be reached. Send it again once the connection is back.";
  var SEND_AGAIN = "The connection is back: send it again if it is still wanted.";
  function isOffline() { return navigator.onLine === false || (root() && root().dataset.connection === "offline"); }
  function notSent(elt, text) {
    var anchor = (elt.closest && elt.closest("form")) || elt;
    var note = anchor.nextElementSibling;
    if (!note || !note.classList.contains("not-sent")) {
      note = document.createElement("p");
      note.className = "not-sent";
      note.setAttribute("role", "alert");
      note.dataset.testid = "not-sent";
      anchor.after(note);
    }
    note.classList.remove("not-sent-back");
    note.textContent = text;
  }
  function backOnline() {
    document.querySelectorAll(".not-sent").forEach(function (note) {
      note.textContent = SEND_AGAIN;
      note.classList.add("not-sent-back");
    });
  }
  // htmx:confirm comes before htmx:beforeRequest, so nothing (commands.js) has disabled a button yet.
  document.addEventListener("htmx:confirm", function (event) {
    if (event.detail.verb === "get" || !isOffline()) { return; }
    event.preventDefault();
    notSent(event.detail.elt, NOT_SENT_OFFLINE);
  });
  document.addEventListener("htmx:sendError", function (event) {
    if (event.detail.requestConfig && event.detail.requestConfig.verb !== "get") { notSent(event.detail.elt, NOT_SENT_FAILED); }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail.elt, anchor = elt && ((elt.closest && elt.closest("form")) || elt);
    var note = anchor && anchor.nextElementSibling;
    if (event.detail.successful && note && note.classList.contains("not-sent")) { note.remove(); }
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
