// The messages a conversation shows: the live transcript once the socket has caught up (its first
// "synced"), and until then those this browser last saw there (remembered-transcript.ts), so a
// page reloaded offline is not empty. Keeps the live transcript's messages once caught up,
// whenever no answer is streaming.
import { useEffect, useMemo, useState } from "react";
import type { TranscriptMessage } from "../../../durable-objects/protocol/transcript";
import { browserStore } from "../browser-store";
import type { LiveState } from "./live-conversation";
import { rememberedTranscript, rememberTranscript } from "./remembered-transcript";

export function useRememberedTranscript(
  me: string | null,
  conversationId: string,
  state: LiveState | null,
): readonly TranscriptMessage[] | null {
  const remembered = useMemo(
    () => (me ? rememberedTranscript(browserStore(), me, conversationId) : null),
    [me, conversationId],
  );
  // Online once: the catch-up is complete (before, a long one may show in parts).
  const [caughtUp, setCaughtUp] = useState(false);
  if (!caughtUp && state?.connection === "online") setCaughtUp(true);
  const messages = state?.transcript.messages;
  const busy = state?.transcript.busy ?? false;
  useEffect(() => {
    if (me && messages && caughtUp && !busy)
      rememberTranscript(browserStore(), me, conversationId, messages);
  }, [me, conversationId, messages, caughtUp, busy]);
  return caughtUp || !remembered?.length ? (messages ?? null) : remembered;
}
