/* The theme, light or dark: a choice made with the toggle (remembered in localStorage) wins, else the
 * system's prefers-color-scheme. Loaded without defer at the top of <head>, so <html data-theme> is
 * set before the first paint and no page flashes the wrong theme. covenant.css keys its colours on it. */
(function () {
  "use strict";
  var KEY = "covenant-theme";
  var root = document.documentElement;
  var system = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

  function chosen() {
    try {
      var value = window.localStorage.getItem(KEY);
      return value === "dark" || value === "light" ? value : null;
    } catch (error) {
      return null;  // storage refused (private mode): follow the system
    }
  }

  function showToggles(theme) {  // the button names what it does: the theme it switches to
    document.querySelectorAll(".theme-toggle").forEach(function (button) {
      button.hidden = false;
      button.textContent = theme === "dark" ? "Light theme" : "Dark theme";
    });
  }

  function showBars(theme) {  // the phone's status bar and an installed app's title bar follow the theme
    document.querySelectorAll("meta[name=theme-color]").forEach(function (meta) {
      meta.setAttribute("content", meta.getAttribute("data-" + theme));
    });
  }

  function apply() {
    var theme = chosen() || (system && system.matches ? "dark" : "light");
    root.setAttribute("data-theme", theme);
    showToggles(theme);
    showBars(theme);
  }

  apply();
  if (system && system.addEventListener) { system.addEventListener("change", apply); }
  window.addEventListener("storage", function (event) { if (event.key === KEY) { apply(); } });  // other tabs
  document.addEventListener("DOMContentLoaded", apply);
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest(".theme-toggle");
    if (!button) { return; }
    var next = root.getAttribute("data-theme") === "dark" ? "light" : "dark";
    try { window.localStorage.setItem(KEY, next); } catch (error) { /* not remembered; still switched */ }
    root.setAttribute("data-theme", next);
    showToggles(next);
    showBars(next);
  });
})();
