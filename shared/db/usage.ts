// Usage rows summed in D1: per answer of a conversation (and its calls of no answer), per UTC day and model of a user, and a
// user's total since a moment (the daily allowance).
import { z } from "zod";
import type { UsageTotals } from "../../durable-objects/protocol/usage";

const SUMS = `COUNT(*) AS calls,
  COALESCE(SUM(input_tokens), 0) AS inputTokens,
  COALESCE(SUM(output_tokens), 0) AS outputTokens,
  COALESCE(SUM(cached_tokens), 0) AS cachedTokens,
  COALESCE(SUM(reasoning_tokens), 0) AS reasoningTokens,
  SUM(cost_usd) AS costUsd,
  COALESCE(SUM(cost_usd IS NULL), 0) AS unpricedCalls,
  COALESCE(SUM(estimated), 0) AS estimatedCalls,
  COALESCE(SUM(unreported), 0) AS unreportedCalls`;

const SumsRow = z.object({
  calls: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  cachedTokens: z.number(),
  reasoningTokens: z.number(),
  costUsd: z.number().nullable(),
  unpricedCalls: z.number(),
  estimatedCalls: z.number(),
  unreportedCalls: z.number(),
});

function totals(row: z.infer<typeof SumsRow>): UsageTotals {
  return { ...row, costUsd: row.costUsd === null ? null : roundUsd(row.costUsd) };
}

/** Float sums drift in the last digits: a micro-cent is finer than any price. */
function roundUsd(usd: number): number {
  return Math.round(usd * 1e8) / 1e8;
}

export async function conversationUsage(db: D1Database, conversationId: string) {
  const [total, perMessage, housekeeping] = await db.batch([
    db.prepare(`SELECT ${SUMS} FROM usage WHERE conversation_id = ?`).bind(conversationId),
    db
      .prepare(
        `SELECT message_id AS messageId, ${SUMS} FROM usage
         WHERE conversation_id = ? AND message_id IS NOT NULL
         GROUP BY message_id ORDER BY MIN(created_at)`,
      )
      .bind(conversationId),
    // Calls of no answer: the title and the rolling summary.
    db
      .prepare(`SELECT ${SUMS} FROM usage WHERE conversation_id = ? AND message_id IS NULL`)
      .bind(conversationId),
  ]);
  return {
    total: totals(SumsRow.parse(total?.results[0])),
    messages: (perMessage?.results ?? []).map((r) => {
      const row = SumsRow.extend({ messageId: z.string() }).parse(r);
      return { messageId: row.messageId, ...totals(row) };
    }),
    housekeeping: totals(SumsRow.parse(housekeeping?.results[0])),
  };
}

/** Per UTC day, provider and model, newest day first; `from` and `to` are epoch ms (to exclusive). */
export async function userUsageByDay(db: D1Database, userId: string, from: number, to: number) {
  const range = [userId, from, to] as const;
  const [total, days] = await db.batch([
    db
      .prepare(`SELECT ${SUMS} FROM usage WHERE user_id = ? AND created_at >= ? AND created_at < ?`)
      .bind(...range),
    db
      .prepare(
        `SELECT strftime('%Y-%m-%d', created_at / 1000, 'unixepoch') AS day, provider, model, ${SUMS}
         FROM usage WHERE user_id = ? AND created_at >= ? AND created_at < ?
         GROUP BY day, provider, model ORDER BY day DESC, provider, model`,
      )
      .bind(...range),
  ]);
  const DayRow = SumsRow.extend({ day: z.string(), provider: z.string(), model: z.string() });
  return {
    total: totals(SumsRow.parse(total?.results[0])),
    days: (days?.results ?? []).map((r) => {
      const row = DayRow.parse(r);
      return { day: row.day, provider: row.provider, model: row.model, ...totals(row) };
    }),
  };
}

/** A user's usage since `since` (epoch ms): what the daily allowance is measured against. */
export async function userUsageSince(
  db: D1Database,
  userId: string,
  since: number,
): Promise<UsageTotals> {
  const row = await db
    .prepare(`SELECT ${SUMS} FROM usage WHERE user_id = ? AND created_at >= ?`)
    .bind(userId, since)
    .first();
  return totals(SumsRow.parse(row));
}
