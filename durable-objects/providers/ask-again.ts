// A request a provider may refuse for one thing it asked for (thinking a model cannot do, a call
// it will not be forced into) is asked once more without that thing, so the extra never costs a
// step that would work without it; the refusal is logged for the operator (and, where asked,
// reported to the conversation, which tells the user). A refusal is an HTTP 400 before anything
// streamed.
import type { AskedAgain, StreamEvent } from "./types";

export interface Extra {
  /** What the request asked for, as the log names it. */
  what: string;
  model: string;
  /** Whether the provider's refusal is about it. */
  refusedFor: RegExp;
  onAskedAgain?: ((refusal: AskedAgain) => void) | undefined;
}

/** `again`: the same call without the extra, or null when the request asked for none. */
export async function* askAgainWithout(
  call: () => AsyncIterable<StreamEvent>,
  again: (() => AsyncIterable<StreamEvent>) | null,
  { what, model, refusedFor, onAskedAgain }: Extra,
): AsyncIterable<StreamEvent> {
  if (!again) return yield* call();
  for await (const event of call()) {
    const { error } = event.type === "error" ? event : {};
    if (error?.status === 400 && refusedFor.test(error.message)) {
      console.warn(
        JSON.stringify({
          level: "warn",
          event: "provider_extra_refused",
          model,
          extra: what,
          message: `${error.message} Asked again without the ${what}.`,
        }),
      );
      onAskedAgain?.({ what, model, message: error.message });
      return yield* again();
    }
    yield event;
  }
}
