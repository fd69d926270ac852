// The conversation's usage from the API: its total, each answer's, and its title and summary
// calls'. Fetched once the socket has caught up, again whenever a turn ends, so finished answers
// keep their figures after a reload, and whenever a title or summary call is recorded
// (`recordedSeq`, the seq of its `usage_recorded` event, sent once its rows are in D1). Events
// replayed while catching up fetch nothing each: one read after the catch-up sees all they did.
// Usage is the owner's spending: a viewer is not shown it, and not asked for it (the API refuses it).
import { useEffect, useRef, useState } from "react";
import { type ConversationRole, seesUsage } from "../../../durable-objects/protocol/roles";
import { ConversationUsage } from "../../../durable-objects/protocol/usage";
import { apiRequest } from "../api";

export function useConversationUsage(
  conversationId: string,
  busy: boolean,
  role: ConversationRole,
  recordedSeq: number | undefined,
  /** The socket has caught up (it said `synced`): replayed events are all in the transcript. */
  caughtUp: boolean,
): ConversationUsage | null {
  const [usage, setUsage] = useState<ConversationUsage | null>(null);
  // The conversation whose usage was read: a turn running when the page opened still gets one.
  const read = useRef<string | null>(null);
  const shown = seesUsage(role);
  useEffect(() => {
    if (!shown || !caughtUp) return;
    // Mid-turn the running answer's figures come live; the stored ones are read once it ends.
    if (busy && read.current === conversationId) return;
    let current = true;
    apiRequest(ConversationUsage, `/api/conversations/${conversationId}/usage`).then(
      (u) => {
        if (!current) return;
        read.current = conversationId;
        setUsage(u);
      },
      // The meter is a convenience: without it the conversation still works.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [conversationId, busy, shown, recordedSeq, caughtUp]);
  return shown && usage?.conversationId === conversationId ? usage : null;
}
