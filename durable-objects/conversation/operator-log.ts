// Structured JSON log lines for the operator (`wrangler tail`, Workers Logs): ids, outcomes and
// figures only. No message text, tool arguments, tokens or secrets ever go into them.
import { writesLevel } from "../../shared/log-level";
import type { UsageTotals } from "../protocol/usage";

export function logTurnEnded(
  env: { LOG_LEVEL?: string },
  entry: {
    conversationId: string;
    turnId: string;
    status: string;
    errorCode?: string;
    steps?: number;
    usage?: UsageTotals;
  },
): void {
  const level = entry.errorCode ? "warn" : "info";
  if (!writesLevel(env, level)) return;
  console.log(
    JSON.stringify({
      level,
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
