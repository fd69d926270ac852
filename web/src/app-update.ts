// Tells an open page that a new build of the app has arrived. A tab or installed window left open
// across a deploy runs the old build until reloaded, while the new service worker has replaced
// the old build's cache: parts it has not loaded yet may be gone. So once a worker of another
// build has installed, the page offers a reload (UpdateNotice). The page knows its own build from
// the `<meta name="build-id">` the build writes (web/build/sw-precache.ts) and asks the worker
// its own; a page that is already the new build (a first visit, a reload) is told nothing.
import { z } from "zod";

/** How long a worker has to say its build: one that never answers is from before builds did. */
const ASK_MS = 5_000;
/** How often an open page asks the server for a new worker (besides coming back or online). */
const CHECK_EVERY_MS = 60 * 60_000;

const BuildAnswer = z.object({ build: z.string().min(1) });

/** The build this page was built as; null under the Vite dev server (an unbuilt page). */
export function pageBuild(doc: Document = document): string | null {
  return doc.querySelector('meta[name="build-id"]')?.getAttribute("content") || null;
}

/** The build a service worker holds, or null if it does not say. */
export function workerBuild(worker: ServiceWorker, waitMs = ASK_MS): Promise<string | null> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const done = (build: string | null) => {
      clearTimeout(timer);
      channel.port1.close();
      resolve(build);
    };
    const timer = setTimeout(() => done(null), waitMs);
    channel.port1.onmessage = (e: MessageEvent) => {
      const answer = BuildAnswer.safeParse(e.data);
      done(answer.success ? answer.data.build : null);
    };
    worker.postMessage({ type: "build?" }, [channel.port2]);
  });
}

// Whether a new build is ready: read by UpdateNotice.
let ready = false;
const listeners = new Set<() => void>();
export const newBuildReady = () => ready;
export function onNewBuildReady(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
function announce() {
  if (ready) return;
  ready = true;
  for (const listener of listeners) listener();
}
/** Tests start each case with no new build. */
export function resetNewBuildForTests() {
  ready = false;
}

/**
 * Watches the page's service worker registration for a worker of a build other than `build`:
 * one waiting, one that finishes installing, or one that takes the page over.
 */
export function watchForNewBuild(
  container: ServiceWorkerContainer,
  registration: ServiceWorkerRegistration,
  build: string | null,
): () => void {
  if (!build) return () => undefined;
  const check = (worker: ServiceWorker | null) => {
    if (!worker) return;
    void workerBuild(worker).then((theirs) => {
      if (theirs && theirs !== build) announce();
    });
  };
  const followInstall = () => {
    const worker = registration.installing;
    if (!worker) return;
    const changed = () => {
      if (worker.state === "installed" || worker.state === "activated") check(worker);
    };
    worker.addEventListener("statechange", changed);
  };
  const taken = () => check(container.controller);
  check(registration.waiting);
  registration.addEventListener("updatefound", followInstall);
  container.addEventListener("controllerchange", taken);

  // Browsers look for a new worker on navigations, which a tab left open makes none of.
  const lookForUpdate = () => void registration.update().catch(() => undefined);
  const onVisible = () => document.visibilityState === "visible" && lookForUpdate();
  window.addEventListener("online", lookForUpdate);
  document.addEventListener("visibilitychange", onVisible);
  const timer = window.setInterval(lookForUpdate, CHECK_EVERY_MS);
  return () => {
    registration.removeEventListener("updatefound", followInstall);
    container.removeEventListener("controllerchange", taken);
    window.removeEventListener("online", lookForUpdate);
    document.removeEventListener("visibilitychange", onVisible);
    window.clearInterval(timer);
  };
}
