// A request a provider may refuse for one thing it asked for (thinking a model cannot do, a call
// it will not be forced into) is asked once more without that thing, so the extra never costs a
// step that would work without it. A refusal is an HTTP 400 before anything streamed.
import type { ModelRequest, ProviderErrorInfo, StreamEvent } from "./types";

export async function* askAgainWithout(
  stream: (request: ModelRequest) => AsyncIterable<StreamEvent>,
  request: ModelRequest,
  /** The request without the extra, or null when it asked for none. */
  plain: ModelRequest | null,
  /** Whether the provider's refusal is about the extra. */
  refusedFor: RegExp,
): AsyncIterable<StreamEvent> {
  if (!plain) return yield* stream(request);
  for await (const event of stream(request)) {
    if (event.type === "error" && isRefusal(event.error, refusedFor)) return yield* stream(plain);
    yield event;
  }
}

const isRefusal = (error: ProviderErrorInfo, about: RegExp) =>
  error.status === 400 && about.test(error.message);
