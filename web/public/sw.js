/* global self, caches, fetch, Request, URL, URLPattern, Response */
// The service worker: keeps the app shell (the page, every hashed script, style and font of its
// build, the manifest and icons) so the client opens at once and offline, lazy parts included.
// It never touches /api/: API answers, artifacts and downloads are per user and always go to the
// network, never a cache.

// Written by the build (web/build/sw-precache.ts): the build's id and its hashed files. A new
// build changes these bytes, so browsers install the new worker; "dev" is the unbuilt file.
const BUILD = { version: "dev", assets: [] };

const CACHE_PREFIX = "thinking-chat-shell-";
const SHELL_CACHE = CACHE_PREFIX + BUILD.version;
const SHELL = ["/", "/manifest.webmanifest", "/icon.svg", "/icon-maskable.svg"];

// Static routes (Chromium 123+) answer these without running this script: a request that waits
// for a worker's fetch event costs the first render tens of milliseconds. Hashed assets come
// from the shell's cache, which holds every one of this build (a miss goes to the network, where
// `_headers` lets the browser keep them for good); API requests go straight to the network.
// Built only where static routes exist: a browser without them may lack URLPattern too.
const routes = () => [
  { condition: { urlPattern: new URLPattern({ pathname: "/assets/*" }) }, source: "cache" },
  { condition: { urlPattern: new URLPattern({ pathname: "/api/*" }) }, source: "network" },
];

/** The hashed scripts and styles a page loads at once (its script, preloads and stylesheet). */
const assetsOf = (html) =>
  [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]);

/** Fills this build's cache: the page and shell files fresh, then every hashed file. */
async function precache() {
  const cache = await caches.open(SHELL_CACHE);
  // The page and shell files keep their names across builds: past the HTTP cache.
  await cache.addAll(SHELL.map((path) => new Request(path, { cache: "no-cache" })));
  const page = await cache.match("/");
  const named = page ? assetsOf(await page.text()) : [];
  // A page of another build (a deploy between this file and the page) names files this build
  // lacks: opened offline it would be blank. Failing the install keeps the worker before it.
  const foreign = BUILD.assets.length ? named.filter((a) => !BUILD.assets.includes(a)) : [];
  if (foreign.length) {
    await caches.delete(SHELL_CACHE);
    throw new Error(`the page is not build ${BUILD.version}'s: ${foreign.join(", ")}`);
  }
  // A file an earlier build kept has the same bytes under the same name: copied, not fetched.
  const missing = [];
  for (const path of new Set([...named, ...BUILD.assets])) {
    const kept = await caches.match(path);
    if (kept) await cache.put(path, kept);
    else missing.push(path);
  }
  await cache.addAll(missing);
}

self.addEventListener("install", (event) => {
  if (typeof event.addRoutes === "function") event.waitUntil(event.addRoutes(routes()));
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

// Older builds' caches go: their files are gone from the server too, and this build has its own.
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys
            .filter((k) => k.startsWith(CACHE_PREFIX) && k !== SHELL_CACHE)
            .map((k) => caches.delete(k)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

// An open page asks a new worker its build: a page of another build offers a reload.
self.addEventListener("message", (event) => {
  if (event.data?.type === "build?") event.ports[0]?.postMessage({ build: BUILD.version });
});

const isShellAsset = (url) => url.pathname.startsWith("/assets/") || SHELL.includes(url.pathname);

/**
 * Worth keeping: a whole same-origin answer that is the file asked for. An unknown name under
 * /assets/ can be answered with the page itself (the single-page fallback), which is no script.
 */
const keepable = (response) =>
  response.status === 200 &&
  response.type === "basic" &&
  !(response.headers.get("content-type") ?? "").startsWith("text/html");

// What the static routes leave: the page itself, and everything in a browser without them.
self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/")) return;
  if (request.mode === "navigate") {
    // The page itself: fresh from the network, else this build's page (whose files it holds).
    event.respondWith(
      fetch(request).catch(() =>
        caches
          .open(SHELL_CACHE)
          .then((cache) => cache.match("/"))
          .then((r) => r ?? Response.error()),
      ),
    );
    return;
  }
  if (!isShellAsset(url)) return;
  // Hashed assets never change under one name: the cache first, kept on the way.
  event.respondWith(
    caches.match(request).then(
      (cached) =>
        cached ??
        fetch(request).then((response) => {
          if (keepable(response) && url.pathname.startsWith("/assets/")) {
            const copy = response.clone();
            event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.put(request, copy)));
          }
          return response;
        }),
    ),
  );
});
