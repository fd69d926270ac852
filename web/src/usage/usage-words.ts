// Usage in words for the meter: tokens, and a cost that never shows an unknown price as $0.
import type { UsageTotals } from "../../../durable-objects/protocol/usage";

const count = new Intl.NumberFormat("en-US");

export function costWords(u: Pick<UsageTotals, "costUsd" | "unpricedCalls">): string {
  if (u.costUsd === null) return "cost unknown";
  const usd = `$${u.costUsd < 1 ? u.costUsd.toFixed(4) : u.costUsd.toFixed(2)}`;
  if (u.unpricedCalls === 0) return usd;
  const calls = u.unpricedCalls === 1 ? "1 call" : `${u.unpricedCalls} calls`;
  return `≥ ${usd} (${calls} without a price)`;
}

export function usageWords(u: UsageTotals): string {
  const parts = [`${count.format(u.inputTokens)} in`, `${count.format(u.outputTokens)} out`];
  if (u.cachedTokens > 0) parts.push(`${count.format(u.cachedTokens)} cached`);
  if (u.reasoningTokens > 0) parts.push(`${count.format(u.reasoningTokens)} reasoning`);
  // Calls cut short before their provider's count (cancelled, restarted) are estimates.
  const estimated = u.estimatedCalls ?? 0;
  const estimates =
    estimated === 0 ? "" : ` (${estimated === 1 ? "1 call" : `${estimated} calls`} estimated)`;
  return `${parts.join(" · ")} tokens${estimates} · ${costWords(u)}`;
}
