/* A push never eats what someone is typing (the encounter pages and the saga page):
 * - a field the person changes is marked (data-typed) until its form is sent and accepted;
 * - a pushed region (an out-of-band outerHTML swap) that has the focus in a field being typed in, or a
 *   form whose request is on its way, is held back, and swapped in once the focus has left the region
 *   and its own forms' requests have come back (an accepted form is not filled in again). Requests
 *   from elsewhere on the page do not hold it: a region held longer would offer a command already done
 *   (a "Confirm" for a phase another push has moved past);
 * - a pushed region with changed fields is swapped in, then its changed fields get back what was typed
 *   or ticked, and its <details> stay open or closed as they were.
 * The region itself is whatever the server pushes whole (the set-up panel, the storyguide's NPC declarations,
 * the controls...): nothing here knows which.
 */
(function () {
  "use strict";
  var TYPING = /^(text|number|search|email|url|tel|password)$/;
  var SETTLE_MS = 400;  // after the focus leaves a held region: time for the click that took it away to land
  var held = {};        // region id -> the newest pushed element not yet swapped in
  var sending = {};     // form key -> requests from that form not yet answered

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
  function awaited(region) {
    return Array.prototype.some.call(region.querySelectorAll("form"), function (f) { return sending[formKey(f)]; });
  }
  function formOf(elt) {
    return elt && (elt.tagName === "FORM" ? elt : (elt.form || (elt.closest && elt.closest("form"))));
  }

  function mark(event) { if (isField(event.target)) { event.target.dataset.typed = "1"; } }
  document.addEventListener("input", mark, true);
  document.addEventListener("change", mark, true);

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
  function restore(region, typed) {
    typed.forEach(function (item) {
      region.querySelectorAll("form").forEach(function (form) {
        if (formKey(form) !== item.form) { return; }
        Array.prototype.forEach.call(form.elements, function (field) {
          if (field.name !== item.name || field.type === "hidden") { return; }
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
      if (Object.prototype.hasOwnProperty.call(state, key)) { d.open = state[key]; }
    });
  }

  // Swap the held region in (through htmx, as a push would), with what was typed in it and its <details>
  // as they were.
  function apply(id) {
    var incoming = held[id], current = document.getElementById(id);
    delete held[id];
    if (!incoming || !current) { return; }
    var typed = typedIn(current), open = detailsState(current);
    htmx.swap(current, incoming.outerHTML, { swapStyle: "outerHTML" });
    var fresh = document.getElementById(id);
    if (!fresh) { return; }
    restore(fresh, typed);
    reopen(fresh, open);
    var status = document.getElementById("encounter-status");  // a region held a while: its version is stale
    if (status) {
      fresh.querySelectorAll("form[data-live-version] input[name=expected_version]").forEach(function (input) {
        input.value = status.dataset.version;
      });
    }
  }
  // Each held region the focus has left and whose own forms are not waiting for an answer.
  function applyReady() {
    Object.keys(held).forEach(function (id) {
      var region = document.getElementById(id);
      if (!region || (!region.contains(document.activeElement) && !awaited(region))) { apply(id); }
    });
  }

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target, fragment = event.detail.fragment;
    if (!event.detail.shouldSwap || !target.id || !fragment || !fragment.firstElementChild) { return; }
    var incoming = fragment.firstElementChild;
    if (incoming.id !== target.id) { return; }  // not a whole-region swap (a new line of the log)
    if (busy(target) || held[target.id] || awaited(target)) {  // someone is typing or sending here: wait
      event.detail.shouldSwap = false;
      held[target.id] = incoming;
      return;
    }
    // Otherwise htmx swaps it in, with what was typed and the <details> as they were set beforehand.
    restore(incoming, typedIn(target));
    reopen(incoming, detailsState(target));
  });

  document.addEventListener("focusout", function () {
    if (Object.keys(held).length) { setTimeout(applyReady, SETTLE_MS); }
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = formOf(event.detail.elt);
    if (form) { sending[formKey(form)] = (sending[formKey(form)] || 0) + 1; }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = formOf(event.detail.elt), xhr = event.detail.xhr;
    if (form) {
      var key = formKey(form);
      sending[key] = (sending[key] || 1) - 1;
      if (!sending[key]) { delete sending[key]; }
      if (xhr && xhr.status >= 200 && xhr.status < 300) {  // sent and accepted: nothing left to keep
        [form].concat(Array.prototype.slice.call(document.querySelectorAll("form"))).forEach(function (f) {
          if (formKey(f) !== key) { return; }
          f.querySelectorAll("[data-typed]").forEach(function (field) { delete field.dataset.typed; });
        });
      }
    }
    Object.keys(held).forEach(function (id) {
      var region = document.getElementById(id);
      if (region && !busy(region) && !awaited(region)) { apply(id); }
    });
  });
})();
