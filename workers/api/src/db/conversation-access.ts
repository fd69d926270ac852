// The conversation a request may act on: its owner's, or one shared with the user with a role
// that allows the request. A stranger gets 404 (the conversation's existence is not revealed); a
// member whose role falls short gets 403 saying what their role allows.
import { and, eq } from "drizzle-orm";
import {
  type ConversationRole,
  refusalFor,
  type Right,
  roleAllows,
} from "../../../../durable-objects/protocol/sharing";
import type { Db } from "../../../../shared/db/client";
import { artifacts, conversationMembers, conversations } from "../../../../shared/db/schema";
import { ApiError, notFound } from "../http/errors";

export type ConversationRow = typeof conversations.$inferSelect;

export interface ConversationAccess {
  row: ConversationRow;
  role: ConversationRole;
}

export async function conversationFor(
  db: Db,
  userId: string,
  id: string,
  right: Right,
): Promise<ConversationAccess> {
  const [found] = await db
    .select({ row: conversations, memberRole: conversationMembers.role })
    .from(conversations)
    .leftJoin(
      conversationMembers,
      and(
        eq(conversationMembers.conversationId, conversations.id),
        eq(conversationMembers.userId, userId),
      ),
    )
    .where(eq(conversations.id, id))
    .limit(1);
  const role: ConversationRole | null = !found
    ? null
    : found.row.userId === userId
      ? "owner"
      : found.memberRole;
  if (!found || !role) throw notFound("Conversation");
  if (!roleAllows(role, right)) throw new ApiError(403, "forbidden", refusalFor(role, right));
  return { row: found.row, role };
}

/** An artifact, through its conversation: a stranger gets 404 for the artifact itself. */
export async function artifactFor(
  db: Db,
  userId: string,
  id: string,
  right: Right,
): Promise<typeof artifacts.$inferSelect> {
  const [artifact] = await db.select().from(artifacts).where(eq(artifacts.id, id)).limit(1);
  if (!artifact) throw notFound("Artifact");
  try {
    await conversationFor(db, userId, artifact.conversationId, right);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) throw notFound("Artifact");
    throw err;
  }
  return artifact;
}
