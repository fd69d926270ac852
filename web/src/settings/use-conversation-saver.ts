// Saves to a conversation one PATCH at a time, each built from the answer to the one before, so
// quick changes in two sections never overwrite each other.
import { useCallback, useEffect, useRef } from "react";
import type { Conversation } from "../../../durable-objects/protocol/rest";
import { type ConversationPatch, settingsApi } from "./settings-api";

export type SaveConversation = (
  makePatch: (current: Conversation) => ConversationPatch,
) => Promise<Conversation>;

export function useConversationSaver(
  conversation: Conversation,
  onChange: (c: Conversation) => void,
): SaveConversation {
  const latest = useRef(conversation);
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  useEffect(() => {
    latest.current = conversation;
  }, [conversation]);
  return useCallback(
    (makePatch) => {
      const run = queue.current.then(async () => {
        const current = latest.current;
        const updated = await settingsApi.updateConversation(current.id, makePatch(current));
        latest.current = updated;
        onChange(updated);
        return updated;
      });
      queue.current = run.catch(() => undefined);
      return run;
    },
    [onChange],
  );
}
