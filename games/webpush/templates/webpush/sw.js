// Cribbage Hall's service worker. It keeps the offline page and the few static files that page
// needs, and nothing else: every page is fetched from the network, and when the network fails the
// offline page is shown in its place. A board is never kept, so a stale board is never shown.
"use strict";

const CONFIG = {{ config|safe }};
const CACHE = "cribbage-offline-__CACHE_VERSION__";
const KEPT = new Set(CONFIG.precache);

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(CONFIG.precache.map((url) => new Request(url, {cache: "reload"}))))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith("cribbage-") && name !== CACHE)
                                        .map((name) => caches.delete(name))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  // POSTs (moves, forms), websockets and other sites' requests go to the network untouched.
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // Network first, and nothing from the network is stored: offline, the offline page stands in
    // for every page, a game's board included.
    event.respondWith(fetch(request).catch(() => caches.match(CONFIG.offline)));
    return;
  }
  if (KEPT.has(url.pathname)) {
    // The network first here too (the browser's own cache makes that cheap): a kept copy only
    // dresses the offline page, so a changed file is never hidden behind an old one.
    event.respondWith(fetch(request).catch(() => caches.match(request, {ignoreSearch: true})));
  }
  // Anything else (htmx requests for boards, /games/…, /ws/…) is the browser's own business.
});

self.addEventListener("push", (event) => {
  let notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch (e) {
    notice = {body: event.data ? event.data.text() : ""};
  }
  const url = typeof notice.url === "string" ? notice.url : "/";
  event.waitUntil(self.registration.showNotification(notice.title || "Cribbage Hall", {
    body: notice.body || "",
    icon: CONFIG.icon,
    badge: CONFIG.badge,
    // One notice per page: a second "your turn" in the same game replaces the first.
    tag: url,
    renotify: true,
    data: {url: url},
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const wanted = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  // Only this site's pages: a notice cannot send the player elsewhere.
  const target = wanted.origin === self.location.origin ? wanted.href : self.location.origin + "/";
  event.waitUntil(
    self.clients.matchAll({type: "window", includeUncontrolled: true}).then((windows) => {
      const open = windows.find((client) => client.url === target);
      if (open) return open.focus();
      return self.clients.openWindow(target);
    })
  );
});
