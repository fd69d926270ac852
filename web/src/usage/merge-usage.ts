// The conversation's usage as the client shows it: the API's figures per answer, or the live
// meter's where it has seen more calls (a turn that just ended may not have reached D1 yet), and
// the API's figures of the calls of no answer (titles, summaries).
import {
  type ConversationUsage,
  sumUsage,
  type UsageTotals,
} from "../../../durable-objects/protocol/usage";

export { sumUsage };

export function usagePerAnswer(
  stored: ConversationUsage | null,
  live: ReadonlyMap<string, UsageTotals>,
): Map<string, UsageTotals> {
  const merged = new Map<string, UsageTotals>();
  // Entries are kept as they are (not copied), so a memoised message sees the same object.
  for (const entry of stored?.messages ?? []) merged.set(entry.messageId, entry);
  for (const [messageId, totals] of live) {
    const known = merged.get(messageId);
    if (!known || totals.calls > known.calls) merged.set(messageId, totals);
  }
  return merged;
}

/** The conversation's figures: its answers' (as merged above) and its title and summary calls. */
export function conversationTotal(
  perAnswer: ReadonlyMap<string, UsageTotals>,
  stored: ConversationUsage | null,
): UsageTotals {
  return sumUsage([...perAnswer.values(), ...(stored ? [stored.housekeeping] : [])]);
}
