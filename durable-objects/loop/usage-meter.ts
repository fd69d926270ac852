// Each model call's usage, priced and added to the turn's running totals (kept in the loop
// state, so a resumed turn counts on from its checkpoint), recorded and shown live. A call cut
// short (cancelled, cut by a stream guard, failed mid-answer) is counted too: with the figures
// its provider gave, and what they lack estimated (see CallMeter). A call under way is noted
// (`callUnderWay`), so one a restart cuts off can be counted when the turn resumes. A call that
// completes without a usage report is counted too, with zero tokens and marked unreported: a
// guess would charge the budgets and the daily allowance with tokens nobody counted.
import type { ModelRequest, ProviderErrorInfo, StreamEvent } from "../providers/types";
import { addCall, type CallUsage, EMPTY_USAGE } from "../protocol/usage";
import { DEFAULT_CHARS_PER_TOKEN } from "./context-budget";
import { requestChars } from "./context-fit";
import { costOf, type PriceTable, priceOf } from "./prices";
import type { LoopDeps, LoopInput, LoopState } from "./types";

/**
 * What a call's figures are when not simply its provider's count: `estimated` (cut short, what
 * the provider did not say is estimated) or `unreported` (it completed without any report).
 */
export type CallFlag = "estimated" | "unreported";

/** A provider's usage report as a call's figures, priced at `model`'s rate when prices are known. */
export function pricedCall(
  event: Extract<StreamEvent, { type: "usage" }>,
  model: string,
  prices: PriceTable | undefined,
  flag?: CallFlag,
): CallUsage {
  const tokens = {
    inputTokens: event.inputTokens,
    outputTokens: event.outputTokens,
    cachedTokens: event.cachedTokens ?? 0,
  };
  return {
    ...tokens,
    reasoningTokens: event.reasoningTokens ?? 0,
    costUsd: prices ? costOf(priceOf(prices, model), tokens) : null,
    ...(flag && { [flag]: true }),
  };
}

/** A usage event that says nothing: a call always reads some input, so zeros are no count. */
export const saysNothing = (event: Extract<StreamEvent, { type: "usage" }>): boolean =>
  !event.cut && event.inputTokens + event.outputTokens === 0;

export function meterModelCall(
  deps: Pick<LoopDeps, "emit" | "recordUsage" | "prices">,
  input: Pick<LoopInput, "turnId" | "messageId" | "model">,
  state: LoopState,
  event: Extract<StreamEvent, { type: "usage" }>,
  flag?: CallFlag,
): void {
  const model = event.servedBy?.model ?? input.model;
  const call = pricedCall(event, model, deps.prices, flag);
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
    ...(flag && { [flag]: true }),
  });
}

type Deps = Pick<
  LoopDeps,
  "emit" | "recordUsage" | "prices" | "charsPerToken" | "callUnderWay" | "attempting"
>;
type Usage = Extract<StreamEvent, { type: "usage" }>;

/**
 * Meters the model calls of one stream (retries and fallbacks are calls of their own). A call is
 * closed by its usage, or by its finish when the provider reported none: then it is counted with
 * zero tokens and marked unreported (as is one whose report is all zeros). A call that ends
 * without either is counted at `end` when it streamed output or was
 * cancelled once sent (the provider has read its input by then: cancelled while the model
 * thought, it streamed nothing yet); one whose provider sent figures as far as they went (`cut`)
 * is counted with them. Either way what the provider did not say is estimated, input from the
 * request as the context fitter counts it, output from the characters streamed, at the
 * conversation's learned characters per token, and the call is marked estimated.
 */
export class CallMeter {
  #chars = 0;
  /** The call under way has not been counted (nor finished). */
  #open = true;
  /** The stream ended cancelled by the user, with a request the provider had been sent. */
  #cancelled = false;
  readonly #ratio: number;
  readonly #inputTokens: number;

  constructor(
    private readonly deps: Deps,
    private readonly input: Pick<LoopInput, "turnId" | "messageId" | "model">,
    private readonly state: LoopState,
    request: ModelRequest,
  ) {
    this.#ratio = deps.charsPerToken ?? DEFAULT_CHARS_PER_TOKEN;
    this.#inputTokens = Math.ceil(requestChars(request) / this.#ratio);
    // Cancelled before it started, the call never reaches the provider.
    if (request.signal?.aborted) this.#open = false;
    else this.#note();
  }

  /** Output the model streamed (text, reasoning, a call's name and arguments). */
  streamed(chars: number): void {
    // After a counted attempt, output means another one (a retry) is under way.
    if (!this.#open) {
      this.#open = true;
      this.#note();
    }
    this.#chars += chars;
  }

  usage(event: Usage): void {
    if (event.cut) this.#estimate(event);
    else if (saysNothing(event)) this.#unreported(event);
    else meterModelCall(this.deps, this.input, this.state, event);
    this.#close();
  }

  finished(): void {
    // Finished with no usage report at all (a compatible server without stream usage).
    if (this.#open) this.#unreported({ type: "usage", inputTokens: 0, outputTokens: 0 });
    this.#close();
  }

  /** The stream ended with `error`: a cancel of a request sent is counted at `end`. */
  failed(error: ProviderErrorInfo): void {
    this.#cancelled = error.code === "aborted" && !error.unsent;
  }

  /** The stream is over, however it ended: a call still open with output, or cancelled, is counted. */
  end(): void {
    if (this.#open && (this.#chars > 0 || this.#cancelled))
      this.#estimate({ type: "usage", inputTokens: 0, outputTokens: 0 });
    this.#close();
  }

  #note(): void {
    this.deps.callUnderWay?.({
      step: this.state.step,
      model: this.input.model,
      inputTokens: this.#inputTokens,
      charsPerToken: this.#ratio,
    });
  }

  #close(): void {
    if (this.#open) this.deps.callUnderWay?.(null);
    this.#open = false;
    this.#chars = 0;
  }

  #unreported(event: Usage): void {
    const servedBy = event.servedBy ?? this.deps.attempting?.() ?? undefined;
    const zero: Usage = { type: "usage", inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
    meterModelCall(
      this.deps,
      this.input,
      this.state,
      { ...zero, ...(servedBy && { servedBy }) },
      "unreported",
    );
  }

  #estimate(reported: Usage): void {
    const inputTokens = reported.inputTokens > 0 ? reported.inputTokens : this.#inputTokens;
    const outputTokens = Math.max(reported.outputTokens, Math.ceil(this.#chars / this.#ratio));
    const estimated =
      inputTokens !== reported.inputTokens || outputTokens !== reported.outputTokens;
    const { cut: _cut, ...figures } = reported;
    // Reported or not, the call is the model's it was sent to (a fallback's, with a route).
    const servedBy = reported.servedBy ?? this.deps.attempting?.() ?? undefined;
    meterModelCall(
      this.deps,
      this.input,
      this.state,
      { ...figures, inputTokens, outputTokens, ...(servedBy && { servedBy }) },
      estimated ? "estimated" : undefined,
    );
  }
}
