/* The offline page (offline.html), shown by the service worker in place of a page the network could not
 * bring. Every few seconds while the browser has a network, when it says it is back online, and on
 * "Try now", it asks the server for that page (a HEAD, which the worker leaves to the network); any answer
 * means the server is back, and the page is loaded again. Opened at its own address, it brings the front
 * page instead. */
(function () {
  "use strict";
  var script = document.currentScript;
  var every = Number(script.getAttribute("data-every")) * 1000;
  var target = window.location.pathname === script.getAttribute("data-offline")
    ? script.getAttribute("data-home") : window.location.href;
  var status = document.querySelector(".offline-retry");
  var trying = false;

  function retry() {
    if (trying || !navigator.onLine) { return; }  // offline for sure: no request to fail
    trying = true;
    fetch(target, {method: "HEAD", cache: "no-store", credentials: "same-origin"}).then(function () {
      window.location.replace(target);
    }, function () {
      trying = false;
      status.textContent = "Still offline at " + new Date().toLocaleTimeString() +
        ". Trying again every " + every / 1000 + " seconds.";
    });
  }

  window.setInterval(retry, every);
  window.addEventListener("online", retry);
  document.querySelector(".offline-now").addEventListener("click", retry);
})();
