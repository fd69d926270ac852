// Installs the service worker of web/public/sw.js (the app shell, for instant and offline
// starts; the build writes its file list into dist/sw.js). Under the Vite dev server it is
// harmless: unbuilt, it keeps only the page, manifest and icons, and always asks the network
// for the page first.
export function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator)) return;
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js").catch(() => {
      // Without it the app still works; it just does not open offline.
    });
  });
}
