// A model call that says nothing for too long counts as down: a tunnel can accept the connection
// and never answer, and without a limit the step would wait for ever instead of falling back.
import { providerError } from "../providers/errors";
import type { StreamEvent } from "../providers/types";

/**
 * Streams `open(signal)`, unless its first event takes longer than `ms`: then the call is
 * aborted and the stream is one `network` error (a provider that is down, see step-route.ts).
 */
export async function* withFirstEventTimeout(
  open: (signal: AbortSignal) => AsyncIterable<StreamEvent>,
  ms: number,
  outer: AbortSignal | undefined,
): AsyncIterable<StreamEvent> {
  const controller = new AbortController();
  const signal = outer ? AbortSignal.any([outer, controller.signal]) : controller.signal;
  const iterator = open(signal)[Symbol.asyncIterator]();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ms);
  });
  const first = await Promise.race([iterator.next(), timedOut]).finally(() => clearTimeout(timer));
  if (first === "timeout") {
    controller.abort();
    // Not awaited: the aborted call ends on its own; nothing more is read from it.
    void iterator.return?.(undefined);
    yield {
      type: "error",
      error: providerError("network", `nothing arrived within ${ms / 1000} s.`),
    };
    return;
  }
  if (first.done) return;
  yield first.value;
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
}
