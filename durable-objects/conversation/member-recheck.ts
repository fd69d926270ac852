// Members' access, read again while events stream to them. The API worker tells this object when
// the owner changes someone's access (`accessChanged`); were that call lost after the change was
// written, a removed member's open socket or event stream would go on receiving the conversation
// until it sent a frame. So while events go out, at most every REVALIDATE_MS, the roles of the
// members connected (never the owner's: nobody can take it away) are read again in one D1 batch,
// and a change is applied as the worker's call would have.
import type { Connection } from "agents";
import type { ConversationRole } from "../protocol/roles";
import { roleFromRow, roleStatement } from "../../shared/db/conversation-access";
import { stateOf } from "./presence";
import { REVALIDATE_MS } from "./socket-gate";
import type { SseSubscriber } from "./sse";

export interface MemberRecheckDeps {
  db: D1Database;
  conversationId: string;
  /**
   * Connected users to check, with the role their sockets hold: members' sockets, and the users
   * of event streams (null: a stream keeps no role; the owner's reads back as owner, unchanged).
   */
  members: () => Map<string, ConversationRole | null>;
  /** Applies a changed role, or a removal (null), to the user's sockets and streams. */
  apply: (userId: string, role: ConversationRole | null) => void;
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

  private async recheck(members: Map<string, ConversationRole | null>): Promise<void> {
    const { db, conversationId } = this.deps;
    const ids = [...members.keys()];
    const rows = await db.batch(ids.map((id) => roleStatement(db, conversationId, id)));
    ids.forEach((id, i) => {
      const role = roleFromRow(rows[i]?.results[0] ?? null);
      const held = members.get(id);
      // A stream keeps no role: only a removal matters to it (it cannot write).
      if (role === null || (held !== null && role !== held)) this.deps.apply(id, role);
    });
  }
}

/** Who to check: members' sockets with their role, and event streams' users (role unknown). */
export function connectedMembers(
  sockets: Iterable<Connection>,
  streams: Iterable<SseSubscriber>,
): Map<string, ConversationRole | null> {
  const members = new Map<string, ConversationRole | null>();
  for (const stream of streams) members.set(stream.credential.userId, null);
  for (const socket of sockets) {
    const state = stateOf(socket);
    const userId = state?.credential?.userId;
    if (userId && state.role && state.role !== "owner") members.set(userId, state.role);
  }
  return members;
}
