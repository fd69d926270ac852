// The model a turn's model call was last sent to. With a route, a step may go past the
// conversation's own model (down, or "local first") to a fallback: a call cut short there (by a
// restart, or a cancel before the provider's figures) is that model's, at that model's price.
// The note of the call under way (call-under-way.ts) is written again as each attempt starts.
import type { CallUnderWay, LoopDeps } from "../loop/types";
import type { ModelProvider, ModelRequest, ProviderId, StreamEvent } from "../providers/types";

type AttemptStream = (provider: ModelProvider, request: ModelRequest) => AsyncIterable<StreamEvent>;

export class CallAttempts {
  #attempt: { provider: ProviderId; model: string } | null = null;
  #noted: CallUnderWay | null = null;

  /** `note` stores the note of the call under way (the Durable Object's storage). */
  constructor(private readonly note?: NonNullable<LoopDeps["callUnderWay"]>) {}

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
    this.#write(call);
  };

  #write(call: CallUnderWay | null): void {
    this.note?.(call && this.#attempt ? { ...call, ...this.#attempt } : call);
  }
}
