// agents' keep-alive (a heartbeat alarm every 30 s while work runs, so the runtime does not evict
// the object in the middle of it), taken only once the work has run for KEEP_ALIVE_AFTER_MS.
// Taking and releasing it writes the object's SQLite twice and its alarm twice, on every turn;
// and its first beat comes 30 s after it is taken, so the turns of a few seconds, most of them,
// never needed it.

/** How long work runs before it holds the keep-alive: well inside the 30 s of the first beat. */
export const KEEP_ALIVE_AFTER_MS = 5_000;

/** Runs `work`; from `afterMs` on until it ends, holds what `keepAlive` takes. */
export async function keepAliveIfLong<T>(
  keepAlive: () => Promise<() => void>,
  work: () => Promise<T>,
  afterMs = KEEP_ALIVE_AFTER_MS,
): Promise<T> {
  let finished = false;
  let release: (() => void) | undefined;
  const timer = setTimeout(() => {
    keepAlive().then(
      (dispose) => (finished ? dispose() : (release = dispose)),
      (err: unknown) => console.warn("could not keep the conversation's object alive", err),
    );
  }, afterMs);
  try {
    return await work();
  } finally {
    finished = true;
    clearTimeout(timer);
    release?.();
  }
}
