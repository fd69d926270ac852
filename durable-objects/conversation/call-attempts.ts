// The model a turn's model call was last sent to. With a route, a step may go past the
// conversation's own model (down, or "local first") to a fallback: a call cut short there (by a
// restart, or a cancel before the provider's figures) is that model's, at that model's price.
// The note of the call under way (call-under-way.ts) is written as each attempt starts: a call
// whose first attempt has not started yet is noted with nothing, so a restart then counts no call
// (none went out) and never one under the model the step before was sent to.
import type { CallUnderWay, LoopDeps } from "../loop/types";
import type { ModelProvider, ModelRequest, ProviderId, StreamEvent } from "../providers/types";

type AttemptStream = (provider: ModelProvider, request: ModelRequest) => AsyncIterable<StreamEvent>;

export class CallAttempts {
  /** The attempt under way of the loop's current model call, null before its first. */
  #attempt: { provider: ProviderId; model: string } | null = null;
  #noted: CallUnderWay | null = null;

  /** `note` stores the note of the call under way (the Durable Object's storage). */
  constructor(private readonly note?: NonNullable<LoopDeps["callUnderWay"]>) {}

  /** Wraps the loop's stream: each model call starts with no attempt (a route may go elsewhere). */
  call(stream: LoopDeps["stream"]): LoopDeps["stream"] {
    return (provider, request, step) => {
      this.#attempt = null;
      return stream(provider, request, step);
    };
  }

  /** Wraps the stream that asks one model once: each call names the model it went to. */
  wrap(stream: AttemptStream): AttemptStream {
    return (provider, request) => {
      this.#attempt = { provider: provider.id, model: request.model };
      if (this.#noted) this.#write(this.#noted);
      return stream(provider, request);
    };
  }

  /** The loop's `attempting`. */
  readonly current = (): { provider: ProviderId; model: string } | null => this.#attempt;

  /** The loop's `callUnderWay`: the note names the model of the attempt under way. */
  readonly callUnderWay = (call: CallUnderWay | null): void => {
    this.#noted = call;
    // Before the call's first attempt there is nothing to note yet: `wrap` writes it.
    if (call && !this.#attempt) return;
    this.#write(call);
  };

  #write(call: CallUnderWay | null): void {
    this.note?.(call && this.#attempt ? { ...call, ...this.#attempt } : call);
  }
}
