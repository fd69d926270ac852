// A route's word to a conversation's object, lost after the route wrote D1: the object is reset
// (as a deploy resets it) while that word waits to reach it. The object is held busy, its input
// gate shut, while the route runs; once the route's change is in D1 and its call to the object is
// queued behind the gate, the object fails and resets, and the queued call fails with it. A file
// using this resets objects: it belongs in ISOLATED_API_FILES (workers/api/vitest.config.ts).
import { env, runInDurableObject } from "cloudflare:test";
import { vi } from "vitest";

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  for (let waited = 0; !(await check()); waited += 10) {
    if (waited > 10_000) throw new Error(`waited 10 s for ${what}`);
    await pause(10);
  }
}

// Between the route's D1 write being visible and its call queuing there is no I/O: far less
// than this. Should the call come later, it reaches the fresh object, nothing is lost, and the
// caller's check of `warnings` fails rather than the test passing for the wrong reason.
const CALL_QUEUED_MS = 250;

export interface LostNotice {
  /** The route's answer. */
  res: Response;
  /** What the worker warned while the route ran (console.warn's first arguments). */
  warnings: string[];
}

/**
 * Runs `change` (a request to a route that writes D1, then tells conversation `id`'s object),
 * resetting the object while the route's word to it waits; `landed` says when D1 holds the change.
 */
export async function resetWhileTold(
  id: string,
  change: () => Promise<Response>,
  landed: () => Promise<boolean>,
): Promise<LostNotice> {
  const warn = vi.spyOn(console, "warn");
  try {
    let busy = false;
    let reset!: () => void;
    const resetNow = new Promise<void>((r) => (reset = r));
    const held = runInDurableObject(env.CONVERSATION.getByName(id), (_instance, state) => {
      busy = true;
      return state.blockConcurrencyWhile(async () => {
        await resetNow;
        throw new Error("the object was reset (as by a deploy) while the route's call waited");
      });
    }).catch(() => undefined);
    await until("the object to be held busy", () => busy);
    const answer = change();
    await until("the route's change to land in D1", landed);
    await pause(CALL_QUEUED_MS);
    reset();
    await held;
    const res = await answer;
    return { res, warnings: warn.mock.calls.map((args) => String(args[0])) };
  } finally {
    warn.mockRestore();
  }
}
