/* The d6 table: a part rendered for every player (a terrain choice) shows only to the person it
 * is for. The server renders each frame once per audience and checks who may choose anyway. */
(function () {
  "use strict";
  function me() {
    var table = document.getElementById("d6-table");
    return table ? table.dataset.me : "";
  }
  function sort() {
    var who = me();
    document.querySelectorAll("[data-for-user]").forEach(function (el) { el.hidden = el.dataset.forUser !== who; });
    document.querySelectorAll("[data-not-for-user]").forEach(function (el) { el.hidden = el.dataset.notForUser === who; });
  }
  document.addEventListener("DOMContentLoaded", sort);
  document.addEventListener("htmx:wsAfterMessage", sort);
  document.addEventListener("htmx:afterSwap", sort);
})();
