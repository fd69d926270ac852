/* global self, caches, fetch, URL, URLPattern, Response */
// The service worker: keeps the app shell (the page, its hashed scripts and styles, the
// manifest and icons) so the client opens at once and offline. It never touches /api/: API
// answers, artifacts and downloads are per user and always go to the network, never a cache.
const SHELL_CACHE = "thinking-chat-shell-v2";
const SHELL = ["/", "/manifest.webmanifest", "/icon.svg", "/icon-maskable.svg"];

// Static routes (Chromium 123+) answer these without running this script: a request that waits
// for a worker's fetch event costs the first render tens of milliseconds. Hashed assets come
// from the shell's cache (a miss goes to the network, where `_headers` lets the browser keep
// them for good); API requests go straight to the network.
// Built only where static routes exist: a browser without them may lack URLPattern too.
const routes = () => [
  { condition: { urlPattern: new URLPattern({ pathname: "/assets/*" }) }, source: "cache" },
  { condition: { urlPattern: new URLPattern({ pathname: "/api/*" }) }, source: "network" },
];

/** The hashed scripts and styles a page loads at once (its script, preloads and stylesheet). */
const assetsOf = (html) =>
  [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]);

self.addEventListener("install", (event) => {
  if (typeof event.addRoutes === "function") event.waitUntil(event.addRoutes(routes()));
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then(async (cache) => {
        await cache.addAll(SHELL);
        const page = await cache.match("/");
        if (page) await cache.addAll(assetsOf(await page.text()));
      })
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(keys.filter((k) => k !== SHELL_CACHE).map((k) => caches.delete(k))),
      )
      .then(() => self.clients.claim()),
  );
});

const isShellAsset = (url) => url.pathname.startsWith("/assets/") || SHELL.includes(url.pathname);

// What the static routes leave: the page itself, and everything in a browser without them.
self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/")) return;
  if (request.mode === "navigate") {
    // The page itself: fresh from the network, the cached shell when there is none.
    event.respondWith(
      fetch(request).catch(() => caches.match("/").then((r) => r ?? Response.error())),
    );
    return;
  }
  if (!isShellAsset(url)) return;
  // Hashed assets never change under one name: the cache first, filled on the way.
  event.respondWith(
    caches.match(request).then(
      (cached) =>
        cached ??
        fetch(request).then((response) => {
          if (response.ok) {
            const copy = response.clone();
            void caches.open(SHELL_CACHE).then((cache) => cache.put(request, copy));
          }
          return response;
        }),
    ),
  );
});
