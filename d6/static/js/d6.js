/* The d6 table: a part rendered for every player (a player's own turn, defence, chase dice, a
 * terrain choice) shows only to the person it is for. The server renders each frame once per
 * audience and checks who may act anyway; what only that person may read (the number an NPC's attack
 * gives their defence to meet, under "results only") is not in the frame, and their page asks for it.
 * A pushed frame redraws the forms; dice and potential typed but not yet sent (inputs marked
 * data-keep, keyed by name and what they are for) are put back into the redrawn form. Typed into a form
 * whose command is on its way (its buttons aria-busy), they are keep_input.js's to give back if refused. */
(function () {
  "use strict";
  var kept = {};
  function me() {
    var table = document.getElementById("d6-table");
    return table ? table.dataset.me : "";
  }
  function sort() {
    var who = me();
    document.querySelectorAll("[data-for-user]").forEach(function (el) { el.hidden = el.dataset.forUser !== who; });
    document.querySelectorAll("[data-not-for-user]").forEach(function (el) { el.hidden = el.dataset.notForUser === who; });
    // The number this person's defence must meet, which the frame every player is sent leaves out: asked
    // for once per drawing of the panel, by the one person it is for.
    if (!who || !window.htmx) { return; }
    document.querySelectorAll("[data-for-user='" + who + "'] [data-to-meet]").forEach(function (el) {
      el.removeAttribute("data-to-meet");
      window.htmx.trigger(el, "covenant:mine");
    });
  }
  function key(input) { return input.name + "|" + input.dataset.keep; }
  function keep() {
    kept = {};
    document.querySelectorAll("input[data-keep]").forEach(function (input) {
      var sending = input.form && input.form.querySelector("[aria-busy=true]");
      if (input.value && !sending) { kept[key(input)] = input.value; }
    });
  }
  function restore() {
    document.querySelectorAll("input[data-keep]").forEach(function (input) {
      var value = kept[key(input)];
      if (value && !input.value) { input.value = value; }
    });
    kept = {};
  }
  document.addEventListener("DOMContentLoaded", sort);
  document.addEventListener("htmx:wsBeforeMessage", keep);
  document.addEventListener("htmx:wsAfterMessage", function () { restore(); sort(); });
  document.addEventListener("htmx:afterSwap", sort);
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.elt;
    if (event.detail.successful && form && form.tagName === "FORM") {
      form.querySelectorAll("input[data-keep]").forEach(function (input) { delete kept[key(input)]; });
    }
  });
})();
