// Usage in words for the meter: tokens, and a cost that never shows an unknown price as $0.
import type { UsageTotals } from "../../../durable-objects/protocol/usage";

const count = new Intl.NumberFormat("en-US");

type Costed = Pick<UsageTotals, "costUsd" | "unpricedCalls"> &
  Partial<Pick<UsageTotals, "calls" | "unreportedCalls">>;

export function costWords(u: Costed): string {
  const unreported = u.unreportedCalls ?? 0;
  // Calls with no usage report cost something nobody told us: none known is no cost known.
  if (u.costUsd === null || (unreported > 0 && unreported === u.calls)) return "cost unknown";
  const usd = `$${u.costUsd < 1 ? u.costUsd.toFixed(4) : u.costUsd.toFixed(2)}`;
  if (u.unpricedCalls === 0) return unreported > 0 ? `≥ ${usd}` : usd;
  const calls = u.unpricedCalls === 1 ? "1 call" : `${u.unpricedCalls} calls`;
  return `≥ ${usd} (${calls} without a price)`;
}

export function usageWords(u: UsageTotals): string {
  const parts = [`${count.format(u.inputTokens)} in`, `${count.format(u.outputTokens)} out`];
  if (u.cachedTokens > 0) parts.push(`${count.format(u.cachedTokens)} cached`);
  if (u.reasoningTokens > 0) parts.push(`${count.format(u.reasoningTokens)} reasoning`);
  // Calls cut short before their provider's count (cancelled, restarted) are estimates; calls
  // whose provider sent no usage report are in no figure but the count of calls.
  const notes = [
    callsWord(u.estimatedCalls, "estimated"),
    callsWord(u.unreportedCalls, "without a usage report"),
  ].filter((note) => note !== null);
  const noted = notes.length === 0 ? "" : ` (${notes.join(", ")})`;
  return `${parts.join(" · ")} tokens${noted} · ${costWords(u)}`;
}

/** "1 call estimated", "2 calls without a usage report"; null for none. */
function callsWord(calls: number | undefined, what: string): string | null {
  if (!calls) return null;
  return `${calls === 1 ? "1 call" : `${calls} calls`} ${what}`;
}
