// A request a provider may refuse for one thing it asked for (thinking a model cannot do, a call
// it will not be forced into) is asked once more without that thing, so the extra never costs a
// step that would work without it; the refusal is logged for the operator. A refusal is an HTTP
// 400 before anything streamed.
import type { ModelRequest, StreamEvent } from "./types";

export interface Extra {
  /** What the request asked for, as the log names it. */
  what: string;
  /** The request without it, or null when it asked for none. */
  plain: ModelRequest | null;
  /** Whether the provider's refusal is about it. */
  refusedFor: RegExp;
}

export async function* askAgainWithout(
  stream: (request: ModelRequest) => AsyncIterable<StreamEvent>,
  request: ModelRequest,
  { what, plain, refusedFor }: Extra,
): AsyncIterable<StreamEvent> {
  if (!plain) return yield* stream(request);
  for await (const event of stream(request)) {
    if (
      event.type === "error" &&
      event.error.status === 400 &&
      refusedFor.test(event.error.message)
    ) {
      console.warn(
        JSON.stringify({
          level: "warn",
          event: "provider_extra_refused",
          model: request.model,
          extra: what,
          message: `${event.error.message} Asked again without the ${what}.`,
        }),
      );
      return yield* stream(plain);
    }
    yield event;
  }
}
