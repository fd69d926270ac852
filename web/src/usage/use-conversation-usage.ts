// The conversation's usage from the API: its total, each answer's, and its title and summary
// calls'. Fetched on opening, again whenever a turn ends, so finished answers keep their figures
// after a reload, and whenever a title or summary call is recorded (`recordedSeq`, the seq of its
// `usage_recorded` event, sent once its rows are in D1). Usage is the owner's spending: a viewer
// is not shown it, and not asked for it (the API refuses it).
import { useEffect, useState } from "react";
import { type ConversationRole, seesUsage } from "../../../durable-objects/protocol/roles";
import { ConversationUsage } from "../../../durable-objects/protocol/usage";
import { apiRequest } from "../api";

export function useConversationUsage(
  conversationId: string,
  busy: boolean,
  role: ConversationRole,
  recordedSeq = 0,
): ConversationUsage | null {
  const [usage, setUsage] = useState<ConversationUsage | null>(null);
  const shown = seesUsage(role);
  useEffect(() => {
    if (busy || !shown) return;
    let current = true;
    apiRequest(ConversationUsage, `/api/conversations/${conversationId}/usage`).then(
      (u) => current && setUsage(u),
      // The meter is a convenience: without it the conversation still works.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [conversationId, busy, shown, recordedSeq]);
  return shown && usage?.conversationId === conversationId ? usage : null;
}
