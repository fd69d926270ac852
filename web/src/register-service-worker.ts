// Installs the service worker of web/public/sw.js (the app shell, for instant and offline
// starts). Under the Vite dev server it is harmless: it caches only /assets/ (hashed builds)
// and always asks the network for the page first.
export function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator)) return;
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js").catch(() => {
      // Without it the app still works; it just does not open offline.
    });
  });
}
