/* The storyguide's keyboard shortcuts on a control panel (each rule system lists its keys on the page):
 * a letter key presses the first enabled, visible button whose data-key lists it, or focuses the first
 * such field (say, a reason to type). A button may list several letters ("r n": roll, or the next step).
 * Never while typing in a field, nor with Ctrl, Alt or Meta held (the browser's own shortcuts).
 * A key pressed twice sends the command twice at most; the server applies it once (expected version).
 */
(function () {
  "use strict";
  var LETTER = /^[a-z]$/;

  function typing(target) {
    if (!target || !target.closest) { return false; }
    return Boolean(target.isContentEditable || target.closest("input, textarea, select, [contenteditable]"));
  }

  function usable(element) {
    return !element.disabled && !element.closest("[hidden]") && element.getClientRects().length > 0;
  }

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.repeat || event.isComposing) { return; }
    if (event.ctrlKey || event.altKey || event.metaKey || typing(event.target)) { return; }
    var key = (event.key || "").toLowerCase();
    if (!LETTER.test(key)) { return; }
    var targets = document.querySelectorAll("[data-key~='" + key + "']");
    for (var i = 0; i < targets.length; i += 1) {
      var element = targets[i];
      if (!usable(element)) { continue; }
      event.preventDefault();
      if (element.tagName === "BUTTON") { element.click(); } else { element.focus(); }
      return;
    }
  });
})();
