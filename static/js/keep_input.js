/* A push never eats what someone is typing (the encounter pages and the saga page):
 * - a field the person changes is marked (data-typed) until its form is sent and accepted, and so is one
 *   changed while the page was loading, before this script ran;
 * - a pushed region (an out-of-band outerHTML swap) that has the focus in a field being typed in is held
 *   back, and swapped in once the focus has left the region;
 * - any other pushed region comes in at once, so that every control in it carries the version the page
 *   now shows (a click on a region held back would send the old one: "the encounter has moved on");
 * - a pushed region is swapped in with what was typed or ticked in its fields put back, and its <details>
 *   open or closed as they were (but one the server opened because it holds something other than the
 *   defaults, data-holds: the preview's options, which stay open); except a form whose command is on its
 *   way: what was typed in it is set aside (an accepted form is not filled in again), its buttons wait
 *   for the answer, and a refused command gets its typed fields back and its message in the redrawn
 *   error slot.
 * The region itself is whatever the server pushes whole (the set-up panel, the storyguide's NPC declarations,
 * the controls...): nothing here knows which.
 */
(function () {
  "use strict";
  var TYPING = /^(text|number|search|email|url|tel|password)$/;
  var SETTLE_MS = 400;  // after the focus leaves a held region: time for the click that took it away to land
  var BUTTONS = "button, input[type=submit]";
  var held = {};        // region id -> the newest pushed element not yet swapped in
  var sending = {};     // form key -> commands from that form not yet answered
  var aside = {};       // form key -> what was typed in it when a push redrew it while its command was on its way

  function isField(el) {
    return Boolean(el && el.name && el.form && /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName) && el.type !== "hidden");
  }
  function isTyping(el) {
    return Boolean(el) && (el.tagName === "TEXTAREA" || el.tagName === "SELECT" ||
      (el.tagName === "INPUT" && TYPING.test(el.type)));
  }
  function busy(region) {
    var el = document.activeElement;
    return Boolean(el) && region.contains(el) && isTyping(el);
  }
  function formOf(elt) {
    return elt && (elt.tagName === "FORM" ? elt : (elt.form || (elt.closest && elt.closest("form"))));
  }
  function formsOf(key, within) {
    return Array.prototype.filter.call((within || document).querySelectorAll("form"), function (form) {
      return formKey(form) === key;
    });
  }

  function mark(event) { if (isField(event.target)) { event.target.dataset.typed = "1"; } }
  document.addEventListener("input", mark, true);
  document.addEventListener("change", mark, true);
  // What was typed or ticked while the page was loading, before this script ran: no event marked it, but
  // it differs from what the page was drawn with, so the first push (the answer to the resume) keeps it.
  function changedFromDrawn(field) {
    if (field.type === "checkbox" || field.type === "radio") { return field.checked !== field.defaultChecked; }
    if (field.type === "select-one") {  // with no option marked selected, the first one is what was drawn
      var drawn = Array.prototype.findIndex.call(field.options, function (o) { return o.defaultSelected; });
      return field.selectedIndex !== Math.max(drawn, 0);
    }
    if (field.tagName === "SELECT") {
      return Array.prototype.some.call(field.options, function (o) { return o.selected !== o.defaultSelected; });
    }
    return field.value !== field.defaultValue;
  }
  Array.prototype.forEach.call(document.querySelectorAll("input, select, textarea"), function (field) {
    if (isField(field) && changedFromDrawn(field)) { field.dataset.typed = "1"; }
  });

  function formKey(form) {
    return form.getAttribute("data-testid") || form.getAttribute("hx-post") || form.getAttribute("action") || "";
  }
  function typedIn(region) {
    var typed = [];
    region.querySelectorAll("[data-typed]").forEach(function (field) {
      if (!isField(field)) { return; }
      typed.push({ form: formKey(field.form), name: field.name, type: field.type, value: field.value,
        checked: field.checked });
    });
    return typed;
  }
  // Put typed values back into the region's forms; `untypedOnly`: not over a field typed in since.
  function restore(region, typed, untypedOnly) {
    typed.forEach(function (item) {
      formsOf(item.form, region).forEach(function (form) {
        Array.prototype.forEach.call(form.elements, function (field) {
          if (field.name !== item.name || field.type === "hidden") { return; }
          if (untypedOnly && field.dataset.typed) { return; }
          if (item.type === "checkbox" || item.type === "radio") {
            if (field.value !== item.value) { return; }
            field.checked = item.checked;
          } else if (field.tagName === "SELECT") {
            if (!Array.prototype.some.call(field.options, function (o) { return o.value === item.value; })) { return; }
            field.value = item.value;
          } else {
            field.value = item.value;
          }
          field.dataset.typed = "1";
        });
      });
    });
  }
  // What was typed in the region, but for the forms whose command is on its way: theirs is set aside.
  function typedToKeep(region) {
    return typedIn(region).filter(function (item) {
      if (!sending[item.form]) { return true; }
      aside[item.form] = (aside[item.form] || []).filter(function (other) { return other.name !== item.name; });
      aside[item.form].push(item);
      return false;
    });
  }
  // A redrawn form whose command is on its way does not send it again before the answer.
  function waitForAnswers(region) {
    region.querySelectorAll("form").forEach(function (form) {
      if (!sending[formKey(form)]) { return; }
      form.querySelectorAll(BUTTONS).forEach(function (button) {
        if (button.disabled) { return; }
        button.disabled = true;
        button.dataset.awaiting = "1";
        button.setAttribute("aria-busy", "true");
      });
    });
  }
  // A <details> is known by its id, or by its place under the nearest element with an id.
  function detailsKey(details, region) {
    if (details.id) { return details.id; }
    var owner = details.parentElement ? details.parentElement.closest("[id]") : null;
    owner = owner && region.contains(owner) ? owner : region;
    return owner.id + "/" + Array.prototype.indexOf.call(owner.querySelectorAll("details"), details);
  }
  // The region's <details>, the region itself first when it is one (an entry pushed alone).
  function detailsIn(region) {
    var all = Array.prototype.slice.call(region.querySelectorAll("details"));
    if (region.tagName === "DETAILS") { all.unshift(region); }
    return all;
  }
  function detailsState(region) {
    var state = {};
    detailsIn(region).forEach(function (d) { state[detailsKey(d, region)] = d.open; });
    return state;
  }
  function reopen(region, state) {
    detailsIn(region).forEach(function (d) {
      var key = detailsKey(d, region);
      if (d.hasAttribute("data-holds")) { return; }  // open because of what it holds: it stays open
      if (Object.prototype.hasOwnProperty.call(state, key)) { d.open = state[key]; }
    });
  }

  // Swap the held region in (through htmx, as a push would), with what was typed in it and its <details>
  // as they were.
  function apply(id) {
    var incoming = held[id], current = document.getElementById(id);
    delete held[id];
    if (!incoming || !current) { return; }
    var typed = typedToKeep(current), open = detailsState(current);
    htmx.swap(current, incoming.outerHTML, { swapStyle: "outerHTML" });
    var fresh = document.getElementById(id);
    if (!fresh) { return; }
    restore(fresh, typed);
    reopen(fresh, open);
    waitForAnswers(fresh);
    var status = document.getElementById("encounter-status");  // a region held a while: its version is stale
    if (status) {
      fresh.querySelectorAll("form[data-live-version] input[name=expected_version]").forEach(function (input) {
        input.value = status.dataset.version;
      });
    }
  }
  // Each held region the focus has left.
  function applyReady() {
    Object.keys(held).forEach(function (id) {
      var region = document.getElementById(id);
      if (!region || !region.contains(document.activeElement)) { apply(id); }
    });
  }

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target, fragment = event.detail.fragment;
    if (!event.detail.shouldSwap || !target.id || !fragment || !fragment.firstElementChild) { return; }
    var incoming = fragment.firstElementChild;
    if (incoming.id !== target.id) { return; }  // not a whole-region swap (a new line of the log)
    if (busy(target) || held[target.id]) {  // someone is typing here: wait
      event.detail.shouldSwap = false;
      held[target.id] = incoming;
      return;
    }
    // Otherwise htmx swaps it in, with what was typed and the <details> as they were set beforehand.
    restore(incoming, typedToKeep(target));
    reopen(incoming, detailsState(target));
    waitForAnswers(incoming);
  });

  document.addEventListener("focusout", function () {
    if (Object.keys(held).length) { setTimeout(applyReady, SETTLE_MS); }
  });

  // The answer to a command, whether or not a push has redrawn its form meanwhile (htmx's own events then
  // go to the old form, out of the page): accepted, the form is done with; refused, the redrawn form gets
  // back what was typed, and the message goes where the form now puts its answers (`lost`: htmx swapped it
  // into a place the push had taken out of the page).
  function answered(key, xhr, lost) {
    sending[key] = (sending[key] || 1) - 1;
    var accepted = xhr.status >= 200 && xhr.status < 300;
    if (lost && xhr.status >= 400 && xhr.status < 500 && document.getElementById(lost.id)) {
      htmx.swap(document.getElementById(lost.id), xhr.responseText, { swapStyle: lost.style });
    }
    if (sending[key]) { return; }
    delete sending[key];
    formsOf(key).forEach(function (form) {
      if (accepted) { form.querySelectorAll("[data-typed]").forEach(function (field) { delete field.dataset.typed; }); }
      form.querySelectorAll("[data-awaiting]").forEach(function (button) {
        button.disabled = false;
        delete button.dataset.awaiting;
        button.removeAttribute("aria-busy");
      });
    });
    if (!accepted && aside[key]) { restore(document, aside[key], true); }
    delete aside[key];
  }
  document.addEventListener("htmx:beforeSend", function (event) {
    var elt = event.detail.elt, form = formOf(elt), xhr = event.detail.xhr, target = event.detail.target;
    var config = event.detail.requestConfig;
    if (!form || !xhr || (config && config.verb === "get")) { return; }
    var key = formKey(form), swapAt = elt.closest("[hx-swap]"), lost = null;
    sending[key] = (sending[key] || 0) + 1;
    xhr.addEventListener("readystatechange", function () {  // before htmx's own onload swaps the answer
      if (xhr.readyState === 4 && target && target.id && !document.body.contains(target)) {
        lost = { id: target.id, style: swapAt ? swapAt.getAttribute("hx-swap").split(" ")[0] : "innerHTML" };
      }
    });
    xhr.addEventListener("loadend", function () { answered(key, xhr, lost); });
  });
  document.addEventListener("htmx:afterRequest", function () {
    Object.keys(held).forEach(function (id) {
      var region = document.getElementById(id);
      if (region && !busy(region)) { apply(id); }
    });
  });
})();
