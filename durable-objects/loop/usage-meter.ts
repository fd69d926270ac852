// Each model call's usage, priced and added to the turn's running totals (kept in the loop
// state, so a resumed turn counts on from its checkpoint), recorded and shown live.
import type { StreamEvent } from "../providers/types";
import { addCall, type CallUsage, EMPTY_USAGE } from "../protocol/usage";
import { costOf, priceOf } from "./prices";
import type { LoopDeps, LoopInput, LoopState } from "./types";

export function meterModelCall(
  deps: Pick<LoopDeps, "emit" | "recordUsage" | "prices">,
  input: Pick<LoopInput, "turnId" | "messageId" | "model">,
  state: LoopState,
  event: Extract<StreamEvent, { type: "usage" }>,
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
  });
}
