{% autoescape off %}/* Covenant's service worker (campaign/web_app.py serves it at /sw.js, so its scope is the whole site).
 * - Static files with a hashed name (ServeStatic's, DEBUG off): from the cache first, fetched and kept once.
 * - Other static files, and the manifest: from the network, else from the cache (what the offline page
 *   loads is kept at install).
 * - Pages (navigations): from the network, else the offline page, kept at install.
 * - Anything else, and never cached: a non-GET (every command), an htmx request (HX-Request), another site.
 *   Websockets never pass through a worker.
 * Version {{ version }}: a digest of the offline page, which names its static files' hashed names, so a
 * deploy that changes either installs a new worker, and the old one's cache is dropped. */
"use strict";
const CACHE = "covenant-{{ version }}";
const OFFLINE_URL = "{{ offline_url }}";
const PRECACHE = {{ precache }};
const STATIC_PREFIX = {{ static_prefix }};
const HASHED = /\.[0-9a-f]{12}\.[^/.]+$/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll([OFFLINE_URL, ...PRECACHE]))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names.filter((name) => name.startsWith("covenant-") && name !== CACHE).map((name) => caches.delete(name))
      ))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || request.headers.has("HX-Request")) { return; }
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(async () => (await caches.match(OFFLINE_URL)) || Response.error()));
  } else if (HASHED.test(url.pathname) && url.pathname.startsWith(STATIC_PREFIX)) {
    event.respondWith(cacheFirst(request));
  } else if (url.pathname.startsWith(STATIC_PREFIX) || PRECACHE.includes(url.pathname)) {
    event.respondWith(networkFirst(request));
  }
});

/* A hashed name never changes its content: the cache's copy, else the network's, kept. */
async function cacheFirst(request) {
  const cached = await caches.match(request);
  if (cached) { return cached; }
  const response = await fetch(request);
  if (response.ok && response.type === "basic") {
    const copy = response.clone();
    caches.open(CACHE).then((cache) => cache.put(request, copy));
  }
  return response;
}

/* An unhashed name (DEBUG) may change at any time: the network's, else the copy kept at install. */
async function networkFirst(request) {
  try {
    return await fetch(request);
  } catch (offline) {
    return (await caches.match(request)) || Response.error();
  }
}
{% endautoescape %}
