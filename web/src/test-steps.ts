// Keeps a jsdom test that timed out from failing the tests after it. Vitest does not stop a test
// that timed out: it goes on in the background, and its next act() overlaps the next test's act(),
// after which React no longer flushes that test's renders ("overlapping act() calls"), so it fails
// too, and so on down the file. Here a test's act() refuses to run once the test has ended, and
// the next test starts only when the acts already running have finished.
import { AsyncLocalStorage } from "node:async_hooks";
import { act as reactAct } from "react";
import { it as vitestIt } from "vitest";

/** The signal of the test whose steps run in this async context (Vitest aborts it on timeout). */
const running = new AsyncLocalStorage<AbortSignal>();
const inFlight = new Set<Promise<unknown>>();

/** Vitest's `it`, whose act() calls stop once the test has ended. */
export function it(name: string, body: () => Promise<void>, timeout?: number): void {
  vitestIt(name, ({ signal }) => running.run(signal, body), timeout);
}

/** React's act(), which throws in a test that has already ended. */
export function act<T>(step: () => T | Promise<T>): Promise<T> {
  running.getStore()?.throwIfAborted();
  // act() answers a thenable whose then() ends its scope: called once, here.
  const done = Promise.resolve(reactAct(step));
  inFlight.add(done);
  void done.then(
    () => inFlight.delete(done),
    () => inFlight.delete(done),
  );
  return done;
}

/** Resolves once no act() is running, an ended test's included (for afterEach). */
export async function actsFinished(): Promise<void> {
  while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
}
