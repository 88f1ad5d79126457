// A command's button disables itself while its request is in flight, so a second click cannot send
// the command again (the server refuses a stale one anyway; this spares the person the refusal).
(function () {
  "use strict";
  var BUTTONS = "button, input[type=submit]";

  function buttonsOf(elt) {
    return elt.matches(BUTTONS) ? [elt] : Array.prototype.slice.call(elt.querySelectorAll(BUTTONS));
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (!elt || !elt.matches || event.detail.requestConfig.verb === "get") {
      return;
    }
    var busy = buttonsOf(elt).filter(function (button) { return !button.disabled; });
    busy.forEach(function (button) {
      button.disabled = true;
      button.setAttribute("aria-busy", "true");
    });
    elt.covenantBusy = busy;
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail.elt;
    (elt && elt.covenantBusy || []).forEach(function (button) {
      button.disabled = false;
      button.removeAttribute("aria-busy");
    });
    if (elt) {
      elt.covenantBusy = [];
    }
  });
})();
