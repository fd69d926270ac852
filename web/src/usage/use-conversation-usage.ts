// The conversation's usage from the API: its total and each answer's. Fetched on opening and
// again whenever a turn ends, so finished answers keep their figures after a reload.
import { useEffect, useState } from "react";
import { ConversationUsage } from "../../../durable-objects/protocol/usage";
import { apiRequest } from "../api";

export function useConversationUsage(
  conversationId: string,
  busy: boolean,
): ConversationUsage | null {
  const [usage, setUsage] = useState<ConversationUsage | null>(null);
  useEffect(() => {
    if (busy) return;
    let current = true;
    apiRequest(ConversationUsage, `/api/conversations/${conversationId}/usage`).then(
      (u) => current && setUsage(u),
      // The meter is a convenience: without it the conversation still works.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [conversationId, busy]);
  return usage?.conversationId === conversationId ? usage : null;
}
