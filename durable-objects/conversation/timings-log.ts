// The conversation's step timings, read back from its event log (each `step_timings` event is
// kept there like any other): what GET /api/conversations/:id/timings returns.
import type { ConversationTimings } from "../protocol/timings";
import { ServerEvent } from "../protocol/wire";
import { hasConversationTables } from "./schema";

export function conversationTimings(sql: SqlStorage): ConversationTimings {
  if (!hasConversationTables(sql)) return { steps: [] };
  const steps = sql
    .exec<{ body: string }>(
      "SELECT body FROM conv_events WHERE json_extract(body, '$.type') = 'step_timings' ORDER BY seq",
    )
    .toArray()
    .flatMap((row) => {
      const event = ServerEvent.safeParse(JSON.parse(row.body));
      return event.success && event.data.type === "step_timings" ? [event.data] : [];
    });
  return {
    steps: steps.map((e) => ({
      turnId: e.turnId,
      messageId: e.messageId,
      at: e.at,
      timings: e.timings,
    })),
  };
}
