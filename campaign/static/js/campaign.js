// Campaign pages: copy the invite link; add a blank row to a sheet's weapons or abilities.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var copy = event.target.closest("[data-copy]");
    if (copy) {
      var input = document.querySelector(copy.dataset.copy);
      input.select();
      var done = function () { copy.textContent = "Copied"; };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(input.value).then(done, function () { document.execCommand("copy"); done(); });
      } else {
        document.execCommand("copy");
        done();
      }
      return;
    }
    var add = event.target.closest("[data-add-row]");
    if (add) {
      var prefix = add.dataset.addRow;
      var total = document.getElementById("id_" + prefix + "-TOTAL_FORMS");
      var template = document.getElementById(prefix + "-empty");
      var rows = document.querySelector('[data-formset="' + prefix + '"]');
      var index = parseInt(total.value, 10);
      var html = template.innerHTML.replace(/__prefix__/g, String(index));
      rows.insertAdjacentHTML("beforeend", html);
      total.value = String(index + 1);
      var first = rows.lastElementChild.querySelector("input, select");
      if (first) { first.focus(); }
    }
  });
})();
