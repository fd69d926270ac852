// Who is looking at an approval or a server's question in a shared conversation: what their role
// lets them do with it, and how to name whoever answered it ("you", or the person's name).
import { useMemo } from "react";
import type { ConversationRole } from "../../../durable-objects/protocol/roles";
import type { MemberList } from "../../../durable-objects/protocol/sharing";
import type { Presence } from "../chat/live-conversation";

export interface Answerer {
  role: ConversationRole;
  /** "you" for the user's own answers (and in a conversation nobody else is in), else a name. */
  nameOf: (userId: string | undefined) => string;
}

/** The owner alone in their conversation: every answer is theirs. */
export const SOLE_OWNER: Answerer = { role: "owner", nameOf: () => "you" };

interface Seen {
  role: ConversationRole;
  me: string | null;
  shared: boolean;
  /** Each person's id and name, from the member list and from who is here. */
  names: Array<[string, string]>;
}

export function answererOf(seen: Seen): Answerer {
  if (!seen.shared) return { ...SOLE_OWNER, role: seen.role };
  const names = new Map(seen.names);
  return {
    role: seen.role,
    nameOf: (userId) =>
      userId === undefined || userId === seen.me
        ? "you"
        : (names.get(userId) ?? "someone no longer in this conversation"),
  };
}

/**
 * The answerer for the open conversation. Presence frames come with every keystroke someone
 * types: the answerer stays the same object until a role or a name changes, so the messages
 * (which take it) are not drawn again for them.
 */
export function useAnswerer(opts: {
  role: ConversationRole;
  me: string | null;
  shared: boolean;
  membership: MemberList | null | undefined;
  presence: Presence | null | undefined;
}): Answerer {
  const names: Array<[string, string]> = [];
  if (opts.membership) {
    names.push([opts.membership.owner.id, opts.membership.owner.name]);
    for (const m of opts.membership.members) names.push([m.user.id, m.user.name]);
  }
  for (const p of opts.presence?.people ?? []) names.push([p.userId, p.name]);
  const key = JSON.stringify({ role: opts.role, me: opts.me, shared: opts.shared, names });
  return useMemo(() => answererOf(JSON.parse(key) as Seen), [key]);
}
