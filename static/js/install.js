/* Registers the service worker (templates/sw.js, served at the site's root), which makes
 * Covenant installable and shows the offline page when the network drops. Browsers give workers to secure
 * contexts only (HTTPS, or localhost): elsewhere there is no navigator.serviceWorker and nothing happens. */
(function () {
  "use strict";
  var worker = document.currentScript.getAttribute("data-worker");
  if (!("serviceWorker" in navigator) || !window.isSecureContext) { return; }
  navigator.serviceWorker.register(worker, {scope: "/"}).catch(function (error) {
    console.warn("Covenant's service worker was not registered:", error);
  });
})();
