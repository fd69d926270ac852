// A task that runs once: when asked to, or after a delay, whichever comes first; never after it
// is cancelled. A turn's first write to D1 waits for its first pause, or for this long.

export interface OnceAfter {
  /** Runs the task now, unless it ran or was cancelled. */
  now(): void;
  /** The task will not run (from the timer or `now`). */
  cancel(): void;
}

export function onceAfter(ms: number, task: () => void): OnceAfter {
  let done = false;
  const timer = setTimeout(() => run(), ms);
  const run = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    task();
  };
  return {
    now: run,
    cancel: () => {
      done = true;
      clearTimeout(timer);
    },
  };
}
