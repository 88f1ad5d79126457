/* What a pushed frame brings, made noticeable (on top of live.js, which swaps it in):
 * - each new result in the log is highlighted for a few seconds and read out by screen readers
 *   (the #live-announce aria-live region);
 * - on a phone, the latest result shows for a few seconds in a bar at the top of the screen, headed by
 *   this person's own character when the result names them; the bar is in the page's flow (it covers none
 *   of it) and, scrolled, sticks above the round's bar, which --latest-height, its height, moves down;
 * - when a move is wanted from this person (a declaration to make; a turn, a defence, chase dice,
 *   a terrain to choose), the tab's title says so and the phone vibrates once, where the
 *   browser allows it;
 * - the tab's title keeps to the encounter's name when a push renames it (the heading).
 * Everything here reads the page as the frame left it: no request of its own.
 */
(function () {
  "use strict";
  var FRESH_MS = 6000;      // how long a new result stays highlighted
  var LATEST_MS = 7000;     // how long the latest-result bar stays up
  var ANNOUNCED = 3;        // at most this many results read out per frame (the newest)
  var VIBRATION = [200, 100, 200];
  var shownSeq = 0, latestTimer = null, baseTitle = null, wantedBefore = "";
  var titleName = null, titleRest = "";  // the page's title is the encounter's name, then titleRest

  function me() { var live = document.getElementById("live"); return live ? live.dataset.me : ""; }
  function newestSeq() {
    var most = 0;
    document.querySelectorAll("#event-log > li.event").forEach(function (item) {
      most = Math.max(most, parseInt(item.dataset.seq || "0", 10));
    });
    return most;
  }
  // The event as a sentence the server built from its fields (combat/sentences.py), never the line's text.
  function words(item) { return item.dataset.announce || ""; }
  function myNames() {
    var who = me(), names = [];
    if (!who) { return names; }
    document.querySelectorAll("[data-owner='" + who + "'] .name").forEach(function (name) {
      var text = name.textContent.trim();
      if (text && names.indexOf(text) < 0) { names.push(text); }
    });
    return names;
  }

  function highlight(items) {
    items.forEach(function (item) {
      item.classList.add("fresh");
      setTimeout(function () { item.classList.remove("fresh"); }, FRESH_MS);
    });
  }
  function announce(lines) {
    var region = document.getElementById("live-announce");
    if (region) { region.textContent = lines.slice(-ANNOUNCED).join(" · "); }
  }
  function showLatest(items) {
    var bar = document.getElementById("latest-result");
    if (!bar || !items.length) { return; }
    var names = myNames(), chosen = items[items.length - 1], mine = "";
    for (var i = items.length - 1; i >= 0 && !mine; i--) {
      var text = words(items[i]);
      for (var j = 0; j < names.length; j++) {
        if (text.indexOf(names[j]) >= 0) { mine = names[j]; chosen = items[i]; break; }
      }
    }
    bar.textContent = "";
    var head = document.createElement("b");
    head.className = "latest-who";
    head.dataset.testid = "latest-who";
    head.textContent = mine || "Latest";
    var body = document.createElement("span");
    body.className = "latest-text";
    body.textContent = words(chosen);
    bar.append(head, " ", body);
    bar.classList.toggle("mine", Boolean(mine));
    shown(bar, true);
    clearTimeout(latestTimer);
    latestTimer = setTimeout(function () { shown(bar, false); }, LATEST_MS);
  }
  // Show or hide the bar, and keep its height for the sticky bars under it (0 where it is not drawn: a wide screen).
  function shown(bar, showing) {
    bar.hidden = !showing;
    var root = document.documentElement.style;
    if (showing && bar.offsetHeight) { root.setProperty("--latest-height", bar.offsetHeight + "px"); }
    else { root.removeProperty("--latest-height"); }
  }

  function newResults() {
    var items = [];
    document.querySelectorAll("#event-log > li.event").forEach(function (item) {
      if (parseInt(item.dataset.seq || "0", 10) > shownSeq) { items.push(item); }
    });
    items.sort(function (a, b) { return a.dataset.seq - b.dataset.seq; });
    shownSeq = Math.max(shownSeq, newestSeq());
    if (!items.length) { return; }
    highlight(items);
    var said = items.filter(function (item) { return words(item); });
    if (!said.length) { return; }
    announce(said.map(words));
    showLatest(said);
  }

  // What is wanted from this person now, in a few words; "" when nothing is.
  function wanted() {
    var who = me();
    if (!who) { return ""; }
    var status = document.getElementById("encounter-status");
    if (status && status.dataset.status === "running" && status.dataset.phase === "declaring") {
      var names = [];
      document.querySelectorAll("#combatants [data-owner='" + who + "']").forEach(function (card) {
        var mark = document.getElementById("declared-" + card.id.replace("combatant-", ""));
        var name = card.querySelector(".name");
        if (mark && mark.classList.contains("waiting") && name) { names.push(name.textContent.trim()); }
      });
      if (names.length) { return "Declare for " + names.join(", "); }
    }
    // A part of the page for this person alone (data-for-user) with a main button to press.
    var parts = document.querySelectorAll("[data-for-user='" + who + "']");
    for (var i = 0; i < parts.length; i++) {
      if (!parts[i].querySelector("button.primary:not([disabled])")) { continue; }
      var title = parts[i].querySelector("h2, h3, p");
      return title ? title.textContent.replace(/\s+/g, " ").trim() : "Your move";
    }
    return "";
  }
  function squeezed(text) { return text.replace(/\s+/g, " ").trim(); }  // as a document's title is kept
  function shownName() {
    var heading = document.getElementById("encounter-name");
    return heading ? squeezed(heading.textContent) : null;
  }
  function titleFollowsName() {
    if (baseTitle === null) {  // the page as drawn: does its title begin with the heading's name?
      baseTitle = document.title;
      var name = shownName();
      if (name && baseTitle.indexOf(name) === 0) { titleName = name; titleRest = baseTitle.slice(name.length); }
      return;
    }
    var now = shownName();
    if (titleName !== null && now && now !== titleName) { titleName = now; baseTitle = now + titleRest; }
  }
  function attention(quiet) {
    titleFollowsName();
    var now = wanted();
    document.title = now ? "▶ " + now + " · " + baseTitle : baseTitle;
    if (quiet !== true && now && now !== wantedBefore && navigator.vibrate) {
      try { navigator.vibrate(VIBRATION); } catch (e) { /* not allowed here: the title says it */ }
    }
    wantedBefore = now;
  }

  document.addEventListener("DOMContentLoaded", function () {
    shownSeq = newestSeq();
    var bar = document.getElementById("latest-result");
    if (bar) { bar.addEventListener("click", function () { shown(bar, false); }); }
    attention(true);  // the page just opened: the title says it, no buzz
  });
  document.addEventListener("htmx:wsAfterMessage", function () { newResults(); attention(); });
  document.addEventListener("htmx:afterSwap", function () { attention(); });
})();
