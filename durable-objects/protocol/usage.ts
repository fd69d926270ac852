// Token usage and cost, as events carry them and the usage API returns them.
import { z } from "zod";

/**
 * Usage summed over model calls. `costUsd` sums the calls whose model has a price; it is null
 * when none has, and `unpricedCalls` says how many calls it leaves out (a partial figure).
 */
export const UsageTotals = z.object({
  calls: z.number().int().min(0),
  inputTokens: z.number().int().min(0),
  outputTokens: z.number().int().min(0),
  cachedTokens: z.number().int().min(0),
  reasoningTokens: z.number().int().min(0),
  costUsd: z.number().min(0).nullable(),
  unpricedCalls: z.number().int().min(0),
  /**
   * How many of the calls have estimated tokens (cut short before their provider's count: by a
   * cancel, a guard, a lost connection or a restart); absent when none has.
   */
  estimatedCalls: z.number().int().min(0).optional(),
  /**
   * How many of the calls completed without a usage report (a compatible server that sends
   * none): counted with zero tokens, so the token and cost figures leave them out; absent when none.
   */
  unreportedCalls: z.number().int().min(0).optional(),
});
export type UsageTotals = z.infer<typeof UsageTotals>;

export const EMPTY_USAGE: UsageTotals = {
  calls: 0,
  inputTokens: 0,
  outputTokens: 0,
  cachedTokens: 0,
  reasoningTokens: 0,
  costUsd: null,
  unpricedCalls: 0,
};

/** One model call's usage; `costUsd` null when its model has no price. */
export interface CallUsage {
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  reasoningTokens: number;
  costUsd: number | null;
  /** Its tokens are estimated, not the provider's count. */
  estimated?: boolean;
  /** Its provider reported no usage: its tokens are zero, not a count. */
  unreported?: boolean;
}

/** The calls of `a` and `b` that are estimates or went unreported, each absent when none. */
function flagged(a: Pick<UsageTotals, "estimatedCalls" | "unreportedCalls">, b: typeof a) {
  const estimatedCalls = (a.estimatedCalls ?? 0) + (b.estimatedCalls ?? 0);
  const unreportedCalls = (a.unreportedCalls ?? 0) + (b.unreportedCalls ?? 0);
  return {
    ...(estimatedCalls > 0 && { estimatedCalls }),
    ...(unreportedCalls > 0 && { unreportedCalls }),
  };
}

export function addCall(totals: UsageTotals, call: CallUsage): UsageTotals {
  return {
    calls: totals.calls + 1,
    inputTokens: totals.inputTokens + call.inputTokens,
    outputTokens: totals.outputTokens + call.outputTokens,
    cachedTokens: totals.cachedTokens + call.cachedTokens,
    reasoningTokens: totals.reasoningTokens + call.reasoningTokens,
    costUsd: call.costUsd === null ? totals.costUsd : (totals.costUsd ?? 0) + call.costUsd,
    unpricedCalls: totals.unpricedCalls + (call.costUsd === null ? 1 : 0),
    ...flagged(totals, {
      estimatedCalls: call.estimated ? 1 : 0,
      unreportedCalls: call.unreported ? 1 : 0,
    }),
  };
}

/** Totals added up (an answer's with its title's, a turn's before and after a restart). */
export function sumUsage(all: Iterable<UsageTotals>): UsageTotals {
  let sum = EMPTY_USAGE;
  for (const u of all) {
    sum = {
      calls: sum.calls + u.calls,
      inputTokens: sum.inputTokens + u.inputTokens,
      outputTokens: sum.outputTokens + u.outputTokens,
      cachedTokens: sum.cachedTokens + u.cachedTokens,
      reasoningTokens: sum.reasoningTokens + u.reasoningTokens,
      costUsd: u.costUsd === null ? sum.costUsd : (sum.costUsd ?? 0) + u.costUsd,
      unpricedCalls: sum.unpricedCalls + u.unpricedCalls,
      ...flagged(sum, u),
    };
  }
  return sum;
}

/**
 * `GET /api/conversations/:id/usage`: the conversation's total, each answer's, and its calls of
 * no answer (`housekeeping`: the title and summary calls). The total is their sum.
 */
export const ConversationUsage = z.object({
  conversationId: z.string(),
  total: UsageTotals,
  messages: z.array(UsageTotals.extend({ messageId: z.string() })),
  housekeeping: UsageTotals,
});
export type ConversationUsage = z.infer<typeof ConversationUsage>;

/** `GET /api/usage`: the user's usage per UTC day and model, newest day first. */
export const UserUsage = z.object({
  from: z.string(),
  to: z.string(),
  total: UsageTotals,
  days: z.array(UsageTotals.extend({ day: z.string(), provider: z.string(), model: z.string() })),
});
export type UserUsage = z.infer<typeof UserUsage>;
