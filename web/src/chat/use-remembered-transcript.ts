// The messages a conversation shows: the live transcript once the socket has caught up (its first
// "synced"), and until then those this browser last saw there (remembered-transcript.ts), so a
// page reloaded offline is not empty. Keeps the live transcript's messages once caught up,
// whenever no answer is streaming. A conversation that is deleted, or that the user left or may no
// longer read, shows none of what was kept, and what was kept of it is forgotten.
import { useEffect, useMemo, useState } from "react";
import type { TranscriptMessage } from "../../../durable-objects/protocol/transcript";
import { browserStore } from "../browser-store";
import type { Connection, LiveState } from "./live-conversation";
import {
  forgetTranscript,
  rememberedTranscript,
  rememberTranscript,
} from "./remembered-transcript";

const ENDED: ReadonlySet<Connection> = new Set(["deleted", "access-revoked", "left"]);

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
  const ended = state ? ENDED.has(state.connection) : false;
  useEffect(() => {
    if (!me) return;
    if (ended) forgetTranscript(browserStore(), me, conversationId);
    else if (messages && caughtUp && !busy)
      rememberTranscript(browserStore(), me, conversationId, messages);
  }, [me, conversationId, messages, caughtUp, busy, ended]);
  if (ended) return messages ?? null;
  return caughtUp || !remembered?.length ? (messages ?? null) : remembered;
}
