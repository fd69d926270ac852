// REST for branches from the browser: make one (branch, edit, regenerate), and the versions of
// each message of a conversation.
import { useEffect, useState } from "react";
import { AlternativesList, type BranchRequest } from "../../../durable-objects/protocol/branches";
import type { MessageAlternatives } from "../../../durable-objects/protocol/branches";
import { Conversation } from "../../../durable-objects/protocol/rest";
import { apiRequest } from "../api";

export const branchConversation = (conversationId: string, request: BranchRequest) =>
  apiRequest(Conversation, `/api/conversations/${conversationId}/branch`, {
    method: "POST",
    json: request,
  });

/** The versions of each message order (seq) that has more than one; fetched again after turns. */
export function useAlternatives(
  conversationId: string,
  busy: boolean,
  /** Only the owner's conversations have versions (branches are the owner's). */
  owns = true,
): ReadonlyMap<number, MessageAlternatives> {
  const [versions, setVersions] = useState<ReadonlyMap<number, MessageAlternatives>>(NONE);
  useEffect(() => {
    if (busy || !owns) return;
    let current = true;
    apiRequest(AlternativesList, `/api/conversations/${conversationId}/alternatives`).then(
      (list) => current && setVersions(new Map(list.items.map((v) => [v.seq, v]))),
      // Without them the conversation still works; only the switchers are missing.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [conversationId, busy, owns]);
  return versions;
}

const NONE: ReadonlyMap<number, MessageAlternatives> = new Map();
