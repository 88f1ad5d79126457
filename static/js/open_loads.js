/* A closed <details> of a long list carries no form until it is opened: its body is a placeholder
 * (data-open-loads) that htmx fetches on "covenant:open". Sent when the <details> is opened, and after a
 * push or a swap for any placeholder in a <details> that is open already (keep_input.js keeps a pushed
 * <details> open when it was). */
(function () {
  "use strict";
  function load(details) {
    details.querySelectorAll("[data-open-loads]").forEach(function (placeholder) {
      if (placeholder.closest("details") === details) { htmx.trigger(placeholder, "covenant:open"); }
    });
  }
  document.addEventListener("toggle", function (event) {
    if (event.target.tagName === "DETAILS" && event.target.open) { load(event.target); }
  }, true);
  document.addEventListener("htmx:afterSettle", function () {
    document.querySelectorAll("details[open]").forEach(load);
  });
  document.addEventListener("htmx:oobAfterSwap", function () {
    document.querySelectorAll("details[open]").forEach(load);
  });
})();
