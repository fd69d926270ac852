// The conversation a request may act on: its owner's, or one shared with the user with a role
// that allows the request. A stranger gets 404 (the conversation's existence is not revealed); a
// member whose role falls short gets 403 saying what their role allows; a former member gets 403
// saying they left or were removed (as their sockets are told), read in the same query.
import { and, eq } from "drizzle-orm";
import {
  type ConversationRole,
  refusalFor,
  type Right,
  roleAllows,
} from "../../../../durable-objects/protocol/sharing";
import type { Db } from "../../../../shared/db/client";
import {
  artifacts,
  conversationDepartures,
  conversationMembers,
  conversations,
} from "../../../../shared/db/schema";
import {
  CLOSE_REASON_ACCESS_REVOKED,
  CLOSE_REASON_LEFT,
} from "../../../../durable-objects/protocol/close-codes";
import { ApiError, notFound } from "../http/errors";
import type { DepartureReason } from "./members";

export type ConversationRow = typeof conversations.$inferSelect;

export interface ConversationAccess {
  row: ConversationRow;
  role: ConversationRole;
}

/**
 * The user was a member and is no longer: they left it, or its owner removed them. `details.reason`
 * is the close reason their sockets get (close-codes.ts), so a client can tell the two apart.
 */
export class FormerMemberError extends ApiError {
  constructor(readonly reason: DepartureReason) {
    super(
      403,
      "forbidden",
      reason === "left"
        ? "You left this conversation: you can no longer read it or send to it. Only its owner can share it with you again."
        : "The owner stopped sharing this conversation with you: you can no longer read it or send to it. Ask the owner to share it with you again.",
      { reason: reason === "left" ? CLOSE_REASON_LEFT : CLOSE_REASON_ACCESS_REVOKED },
    );
  }
}

export async function conversationFor(
  db: Db,
  userId: string,
  id: string,
  right: Right,
): Promise<ConversationAccess> {
  const [found] = await db
    .select({
      row: conversations,
      memberRole: conversationMembers.role,
      departure: conversationDepartures.reason,
    })
    .from(conversations)
    .leftJoin(
      conversationMembers,
      and(
        eq(conversationMembers.conversationId, conversations.id),
        eq(conversationMembers.userId, userId),
      ),
    )
    // Recorded only while they are not a member (sharing again deletes it): db/members.ts.
    .leftJoin(
      conversationDepartures,
      and(
        eq(conversationDepartures.conversationId, conversations.id),
        eq(conversationDepartures.userId, userId),
      ),
    )
    .where(eq(conversations.id, id))
    .limit(1);
  const role: ConversationRole | null = !found
    ? null
    : found.row.userId === userId
      ? "owner"
      : found.memberRole;
  if (found && !role && found.departure) throw new FormerMemberError(found.departure);
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
