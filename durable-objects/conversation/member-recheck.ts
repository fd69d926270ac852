// Members' access, read again while events stream to them. The API worker tells this object when
// the owner changes someone's access (`accessChanged`); were that call lost after the change was
// written, a removed member's open socket or event stream would go on receiving the conversation
// until it sent a frame, and a member made a viewer its usage. So while events go out, at most every REVALIDATE_MS, the roles of the
// members connected (never the owner's: nobody can take it away) are read again in one D1 batch,
// and a change is applied as the worker's call would have. A member no longer there is told
// they left when their leave was recorded (conversation_departures), else that they were removed.
import type { Connection } from "agents";
import type { ConversationRole } from "../protocol/roles";
import { accessFromRow, roleStatement } from "../../shared/db/conversation-access";
import { stateOf } from "./presence";
import { REVALIDATE_MS } from "./socket-gate";
import type { SseSubscriber } from "./sse";

export interface MemberRecheckDeps {
  db: D1Database;
  conversationId: string;
  /** Connected members to check, each with every role their sockets and streams hold. */
  members: () => Map<string, Set<ConversationRole>>;
  /**
   * Applies a changed role, or a removal (null), to the user's sockets and streams; `left`: the
   * user left it themself (recorded with the leave), so they are told that, not that they were
   * removed.
   */
  apply: (userId: string, role: ConversationRole | null, left: boolean) => void;
}

export class MemberRecheck {
  #last = 0;
  #running = false;

  constructor(private readonly deps: MemberRecheckDeps) {}

  /** Called as events go out: re-reads the members' roles when the last read is old. */
  dueNow(now = Date.now()): void {
    if (this.#running || now - this.#last < REVALIDATE_MS) return;
    const members = this.deps.members();
    // The owner alone (the common case) costs nothing.
    if (members.size === 0) return;
    this.#last = now;
    this.#running = true;
    void this.recheck(members)
      .catch((err: unknown) => console.warn("sharing: re-reading members' access failed", err))
      .finally(() => {
        this.#running = false;
      });
  }

  private async recheck(members: Map<string, Set<ConversationRole>>): Promise<void> {
    const { db, conversationId } = this.deps;
    const ids = [...members.keys()];
    const rows = await db.batch(ids.map((id) => roleStatement(db, conversationId, id)));
    ids.forEach((id, i) => {
      const { role, left } = accessFromRow(rows[i]?.results[0] ?? null);
      const held = members.get(id) ?? new Set();
      // Any socket or stream still on the old role takes the new one (a stream too: a viewer's
      // leaves out usage).
      if (role === null || [...held].some((h) => h !== role)) this.deps.apply(id, role, left);
    });
  }
}

/** Who to check: the members (never the owner) with a socket or an event stream open. */
export function connectedMembers(
  sockets: Iterable<Connection>,
  streams: Iterable<SseSubscriber>,
): Map<string, Set<ConversationRole>> {
  const members = new Map<string, Set<ConversationRole>>();
  const add = (userId: string, role: ConversationRole) => {
    if (role === "owner") return;
    const held = members.get(userId) ?? new Set<ConversationRole>();
    members.set(userId, held.add(role));
  };
  for (const stream of streams) add(stream.credential.userId, stream.role);
  for (const socket of sockets) {
    const state = stateOf(socket);
    const userId = state?.credential?.userId;
    if (userId && state.role) add(userId, state.role);
  }
  return members;
}
