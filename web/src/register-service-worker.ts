// Installs the service worker of web/public/sw.js (the app shell, for instant and offline
// starts; the build writes its file list into dist/sw.js), then watches it for a new build to
// offer a reload (app-update.ts). Under the Vite dev server it is harmless: unbuilt, it keeps
// only the page, manifest and icons, always asks the network for the page first, and the page
// has no build id to compare.
import { pageBuild, watchForNewBuild } from "./app-update";

export function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator)) return;
  window.addEventListener("load", () => {
    const container = navigator.serviceWorker;
    container
      .register("/sw.js")
      .then((registration) => watchForNewBuild(container, registration, pageBuild()))
      .catch(() => {
        // Without it the app still works; it just does not open offline.
      });
  });
}
