// Picks the history a model call carries, newest first, within a token budget: the current turn
// always whole, then earlier turns (each a user message and everything that answered it, tool
// calls and results included) as long as they fit. A turn is kept whole or not at all, so a
// tool call never loses its result and the kept history is one unbroken stretch.
import type { TokenEstimator } from "./context-budget";
import type { NeutralMessage } from "../providers/types";

export interface AssembledHistory {
  messages: NeutralMessage[];
  /** Messages of earlier turns left out (the oldest ones). */
  omittedMessages: number;
  /** Estimated tokens of `messages`. */
  tokens: number;
}

/** Splits a history into turns: each begins at a user message. */
export function splitTurns(history: readonly NeutralMessage[]): NeutralMessage[][] {
  const turns: NeutralMessage[][] = [];
  for (const m of history) {
    const last = turns.at(-1);
    if (m.role === "user" || !last) turns.push([m]);
    else last.push(m);
  }
  return turns;
}

export function assembleHistory(
  history: readonly NeutralMessage[],
  budgetTokens: number,
  estimate: TokenEstimator,
): AssembledHistory {
  const turns = splitTurns(history);
  const current = turns.pop() ?? [];
  let tokens = estimate.messages(current);
  let firstKept = turns.length;
  for (let i = turns.length - 1; i >= 0; i--) {
    const cost = estimate.messages(turns[i]!);
    if (tokens + cost > budgetTokens) break;
    tokens += cost;
    firstKept = i;
  }
  const kept = turns.slice(firstKept);
  let omittedMessages = 0;
  for (let i = 0; i < firstKept; i++) omittedMessages += turns[i]!.length;
  return { messages: [...kept.flat(), ...current], omittedMessages, tokens };
}

/**
 * After the provider refused a request for its length: the same messages with the older half of
 * the earlier turns left out (the current turn's messages, from its user message on, stay).
 */
export function shrinkForRetry(
  messages: readonly NeutralMessage[],
  estimate: TokenEstimator,
): { messages: NeutralMessage[]; omittedMessages: number } {
  const turns = splitTurns(messages);
  const current = turns.pop() ?? [];
  const earlier = turns.flat();
  const target = Math.floor(estimate.messages(earlier) / 2);
  const kept = assembleHistory(
    [...earlier, ...current],
    target + estimate.messages(current),
    estimate,
  );
  return { messages: kept.messages, omittedMessages: kept.omittedMessages };
}
