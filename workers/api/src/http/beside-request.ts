// Work a request starts but need not wait for (bookkeeping, an early start): it runs on under the
// request's `waitUntil`. Called outside a worker's fetch (a test's `app.request`, which has no
// ExecutionContext), the work simply runs on its own.
import type { Context } from "hono";

export function besideRequest(c: Context): (work: Promise<unknown>) => void {
  return (work) => {
    let waitUntil: ((work: Promise<unknown>) => void) | undefined;
    try {
      const ctx = c.executionCtx;
      waitUntil = (w) => ctx.waitUntil(w);
    } catch {
      // No ExecutionContext: `work` is already running, on its own.
    }
    waitUntil?.(work);
  };
}
