// Who may do what in a conversation: its owner, or a member it was shared with. One indexed D1
// read, used by the API worker on every route and by the conversation's Durable Object on every
// frame that writes (a member removed while their socket is open is refused at once).
import { ConversationRole } from "../../durable-objects/protocol/roles";

/**
 * A user's access to a conversation: their role, or null when it is not theirs and not shared
 * with them; `left` when it is not because they left it themself (not because the owner removed
 * them), so their open tabs can say which.
 */
export interface MemberAccess {
  role: ConversationRole | null;
  left: boolean;
}

/** The user's access to the conversation, as read now. */
export async function accessInConversation(
  db: D1Database,
  conversationId: string,
  userId: string,
): Promise<MemberAccess> {
  return accessFromRow(await roleStatement(db, conversationId, userId).first());
}

/**
 * The role rule as SQL: in conversation ?2, the user the `holder` query names (one `user_id`
 * column) is its owner, a member with their role, or nobody (a null role). The holder may be a
 * user id, or the user behind a token or session (workers/api/src/auth/holder-role.ts).
 */
export const roleOfHolderSql = (holder: string) =>
  `SELECT h.user_id AS user_id, CASE WHEN c.user_id = h.user_id THEN 'owner' ELSE m.role END AS role
     FROM (${holder}) h
     LEFT JOIN conversations c ON c.id = ?2
     LEFT JOIN conversation_members m ON m.conversation_id = c.id AND m.user_id = h.user_id`;

// With whether the user left it (conversation_departures), for a member no longer there.
const ROLE_OF_USER = `SELECT r.role AS role,
    EXISTS (SELECT 1 FROM conversation_departures d
             WHERE d.conversation_id = ?2 AND d.user_id = ?1 AND d.reason = 'left') AS has_left
  FROM (${roleOfHolderSql("SELECT ?1 AS user_id")}) r`;

/** The read behind `accessInConversation`, for a batch; its first row goes to `accessFromRow`. */
export function roleStatement(db: D1Database, conversationId: string, userId: string) {
  return db.prepare(ROLE_OF_USER).bind(userId, conversationId);
}

export function accessFromRow(row: unknown): MemberAccess {
  const role = roleFromRow(row);
  const left = role === null && Boolean((row as { has_left?: unknown } | null)?.has_left);
  return { role, left };
}

export function roleFromRow(row: unknown): ConversationRole | null {
  const parsed = ConversationRole.safeParse((row as { role?: unknown } | null)?.role);
  return parsed.success ? parsed.data : null;
}

/** A user's display name, or null for a user who no longer exists. */
export async function userName(db: D1Database, userId: string): Promise<string | null> {
  return nameFromRow(await userNameStatement(db, userId).first());
}

/** The read behind `userName`, for a batch; its first row goes to `nameFromRow`. */
export function userNameStatement(db: D1Database, userId: string) {
  return db.prepare("SELECT name FROM users WHERE id = ?").bind(userId);
}

export function nameFromRow(row: unknown): string | null {
  const name = (row as { name?: unknown } | null)?.name;
  return typeof name === "string" ? name : null;
}
