// How both of OpenAI's streams end, once the provider said it finished: the calls the answer made,
// in the order the model wrote them, then the usage, then why it stopped.
import { newCallId, toolCallEvent } from "../tool-arguments";
import type { FinishReason, StreamEvent } from "../types";

/** A function call being assembled, by its position in the answer. */
export type PendingCalls = Map<number, { id: string; name: string; json: string }>;

type Usage = Extract<StreamEvent, { type: "usage" }>;

export const usageEvent = (
  inputTokens: number,
  outputTokens: number,
  cachedTokens: number | undefined,
  reasoningTokens: number | undefined,
): Usage => ({
  type: "usage",
  inputTokens,
  outputTokens,
  cachedTokens: cachedTokens ?? 0,
  ...(reasoningTokens !== undefined && { reasoningTokens }),
});

export function* streamEnd(
  calls: PendingCalls,
  usage: Usage | null,
  reason: FinishReason,
): Iterable<StreamEvent> {
  for (const [, call] of [...calls].sort(([a], [b]) => a - b))
    yield toolCallEvent(call.id || newCallId(), call.name, call.json);
  if (usage) yield usage;
  // Cut at max tokens, the last call may be cut too: the loop must know it.
  yield { type: "finish", reason: calls.size > 0 && reason !== "length" ? "tool_calls" : reason };
}
