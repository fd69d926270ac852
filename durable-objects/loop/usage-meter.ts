// Each model call's usage, priced and added to the turn's running totals (kept in the loop
// state, so a resumed turn counts on from its checkpoint), recorded and shown live. A call cut
// short (cancelled, cut by a stream guard, failed mid-answer) is counted too: with the figures
// its provider gave, and what they lack estimated (see CallMeter).
import type { ModelRequest, StreamEvent } from "../providers/types";
import { addCall, type CallUsage, EMPTY_USAGE } from "../protocol/usage";
import { DEFAULT_CHARS_PER_TOKEN } from "./context-budget";
import { requestChars } from "./context-fit";
import { costOf, priceOf } from "./prices";
import type { LoopDeps, LoopInput, LoopState } from "./types";

export function meterModelCall(
  deps: Pick<LoopDeps, "emit" | "recordUsage" | "prices">,
  input: Pick<LoopInput, "turnId" | "messageId" | "model">,
  state: LoopState,
  event: Extract<StreamEvent, { type: "usage" }>,
  estimated = false,
): void {
  const model = event.servedBy?.model ?? input.model;
  const tokens = {
    inputTokens: event.inputTokens,
    outputTokens: event.outputTokens,
    cachedTokens: event.cachedTokens ?? 0,
  };
  const call: CallUsage = {
    ...tokens,
    reasoningTokens: event.reasoningTokens ?? 0,
    costUsd: deps.prices ? costOf(priceOf(deps.prices, model), tokens) : null,
  };
  state.usage = addCall(state.usage ?? EMPTY_USAGE, call);
  deps.recordUsage({ ...call, step: state.step, ...event.servedBy });
  deps.emit({
    type: "usage_updated",
    turnId: input.turnId,
    messageId: input.messageId,
    step: state.step,
    model,
    call: addCall(EMPTY_USAGE, call),
    turn: state.usage,
    ...(estimated && { estimated: true }),
  });
}

type Deps = Pick<LoopDeps, "emit" | "recordUsage" | "prices" | "charsPerToken">;
type Usage = Extract<StreamEvent, { type: "usage" }>;

/**
 * Meters the model calls of one stream (retries and fallbacks are calls of their own). A call is
 * closed by its usage, or by its finish when the provider reported none (counted as before: not
 * at all). A call that ends without either but streamed output (cancelled, cut by a guard, its
 * connection lost) is counted at `end`, and one whose provider sent figures as far as they went
 * (`cut`) is counted with them: either way what the provider did not say is estimated, input
 * from the request as the context fitter counts it, output from the characters streamed, at the
 * conversation's learned characters per token, and the call is marked estimated.
 */
export class CallMeter {
  #chars = 0;

  constructor(
    private readonly deps: Deps,
    private readonly input: Pick<LoopInput, "turnId" | "messageId" | "model">,
    private readonly state: LoopState,
    private readonly request: ModelRequest,
  ) {}

  /** Output the model streamed (text, reasoning, a call's name and arguments). */
  streamed(chars: number): void {
    this.#chars += chars;
  }

  usage(event: Usage): void {
    if (event.cut) this.#estimate(event);
    else meterModelCall(this.deps, this.input, this.state, event);
    this.#chars = 0;
  }

  finished(): void {
    this.#chars = 0;
  }

  /** The stream is over, however it ended: a call still open with output is counted. */
  end(): void {
    if (this.#chars > 0) this.#estimate({ type: "usage", inputTokens: 0, outputTokens: 0 });
    this.#chars = 0;
  }

  #estimate(reported: Usage): void {
    const ratio = this.deps.charsPerToken ?? DEFAULT_CHARS_PER_TOKEN;
    const inputTokens =
      reported.inputTokens > 0
        ? reported.inputTokens
        : Math.ceil(requestChars(this.request) / ratio);
    const outputTokens = Math.max(reported.outputTokens, Math.ceil(this.#chars / ratio));
    const estimated =
      inputTokens !== reported.inputTokens || outputTokens !== reported.outputTokens;
    const { cut: _cut, ...figures } = reported;
    meterModelCall(
      this.deps,
      this.input,
      this.state,
      { ...figures, inputTokens, outputTokens },
      estimated,
    );
  }
}
