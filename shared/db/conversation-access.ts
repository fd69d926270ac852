// Who may do what in a conversation: its owner, or a member it was shared with. One indexed D1
// read, used by the API worker on every route and by the conversation's Durable Object on every
// frame that writes (a member removed while their socket is open is refused at once).
import { ConversationRole } from "../../durable-objects/protocol/roles";

/** The user's role in the conversation, or null when it is not theirs and not shared with them. */
export async function roleInConversation(
  db: D1Database,
  conversationId: string,
  userId: string,
): Promise<ConversationRole | null> {
  return roleFromRow(await roleStatement(db, conversationId, userId).first());
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

const ROLE_OF_USER = roleOfHolderSql("SELECT ?1 AS user_id");

/** The read behind `roleInConversation`, for a batch; its first row goes to `roleFromRow`. */
export function roleStatement(db: D1Database, conversationId: string, userId: string) {
  return db.prepare(ROLE_OF_USER).bind(userId, conversationId);
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
