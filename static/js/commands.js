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

  // A plain page form (a new saga, a sheet, stamped NPCs): once it is sent, its buttons stay disabled
  // until the next page arrives. Disabled after the event, so the button that sent it still counts.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || form.hasAttribute("hx-post") || form.hasAttribute("hx-get")) {
      return;
    }
    window.setTimeout(function () {
      buttonsOf(form).forEach(function (button) { button.disabled = true; });
    }, 0);
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
