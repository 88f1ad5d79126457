// A command's button disables itself while its request is in flight, so a second click cannot send
// the command again (the server refuses a stale one anyway; this spares the person the refusal).
// A command the server refused because it is too busy (503, config.admission) was not applied: its
// message ("The table is busy: not sent. Try again in N s.") stands beside the form or button, whose
// buttons stay disabled for the Retry-After seconds, then say it can be sent again. Nothing is sent again
// by itself: the person decides, and the version check applies a second click once.
(function () {
  "use strict";
  var BUTTONS = "button, input[type=submit]";
  var BUSY = 503;
  var SEND_AGAIN = "The table was busy: not sent. Send it again.";

  // The note after the form (or the lone button) that sent the command.
  function busyNote(elt, create) {
    var anchor = (elt.closest && elt.closest("form")) || elt;
    var note = anchor.nextElementSibling;
    if (note && note.classList.contains("busy-note")) { return note; }
    if (!create) { return null; }
    note = document.createElement("p");
    note.className = "form-error busy-note";
    note.setAttribute("role", "alert");
    note.dataset.testid = "busy";
    anchor.after(note);
    return note;
  }

  // A refusal for being busy: its message beside the control, its buttons kept disabled until
  // Retry-After has passed (so the queue ahead can drain), then given back.
  function refusedBusy(elt, xhr, buttons) {
    var seconds = parseInt(xhr.getResponseHeader("Retry-After"), 10);
    if (!(seconds > 0)) { seconds = 2; }
    var said = new DOMParser().parseFromString(xhr.responseText || "", "text/html").body.textContent.trim();
    var note = busyNote(elt, true);
    note.textContent = said || "The table is busy: not sent. Try again in " + seconds + " s.";
    window.setTimeout(function () {
      buttons.forEach(function (button) {
        button.disabled = false;
        button.removeAttribute("aria-busy");
      });
      if (note.isConnected) { note.textContent = SEND_AGAIN; }
    }, seconds * 1000);
  }

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

  // Nothing of a busy refusal is swapped, and it is no error to log: it is answered below, beside the
  // control (the request is not "successful" either: nothing that waits for a success acts on it).
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.xhr && event.detail.xhr.status === BUSY) { event.preventDefault(); }
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail.elt;
    var buttons = elt && elt.covenantBusy || [];
    if (elt) {
      elt.covenantBusy = [];
    }
    var xhr = event.detail.xhr;
    if (elt && xhr && xhr.status === BUSY) {
      refusedBusy(elt, xhr, buttons);
      return;
    }
    buttons.forEach(function (button) {
      button.disabled = false;
      button.removeAttribute("aria-busy");
    });
    var note = elt && event.detail.successful && busyNote(elt, false);
    if (note) { note.remove(); }
  });
})();
