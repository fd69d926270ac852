// Structured JSON log lines for the operator (`wrangler tail`, Workers Logs): ids, outcomes and
// figures only. No message text, tool arguments, tokens or secrets ever go into them.
import type { UsageTotals } from "../protocol/usage";

export function logTurnEnded(entry: {
  conversationId: string;
  turnId: string;
  status: string;
  errorCode?: string;
  steps?: number;
  usage?: UsageTotals;
}): void {
  console.log(
    JSON.stringify({
      level: entry.errorCode ? "warn" : "info",
      event: "turn_ended",
      conversationId: entry.conversationId,
      turnId: entry.turnId,
      status: entry.status,
      ...(entry.errorCode && { errorCode: entry.errorCode }),
      ...(entry.steps !== undefined && { steps: entry.steps }),
      ...(entry.usage && {
        calls: entry.usage.calls,
        inputTokens: entry.usage.inputTokens,
        outputTokens: entry.usage.outputTokens,
        costUsd: entry.usage.costUsd,
      }),
    }),
  );
}
