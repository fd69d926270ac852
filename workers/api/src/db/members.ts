// The people a conversation is shared with (conversation_members), and the users of this
// instance the owner can pick from.
import { and, asc, desc, eq, ne, or, sql } from "drizzle-orm";
import type {
  Member,
  MemberRole,
  SharedConversation,
  UserRef,
} from "../../../../durable-objects/protocol/sharing";
import type { Db } from "../../../../shared/db/client";
import {
  conversationDepartures,
  conversationMembers,
  conversations,
  users,
} from "../../../../shared/db/schema";
import { conversationForViewer } from "../../../../durable-objects/protocol/viewer-view";
import { toConversation } from "./conversations";
import { startsWithText } from "./text-match";

export async function userRef(db: Db, userId: string): Promise<UserRef> {
  const [row] = await db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? { id: userId, name: "(removed user)" };
}

export async function listMembers(db: Db, conversationId: string): Promise<Member[]> {
  const rows = await db
    .select({
      id: users.id,
      name: users.name,
      role: conversationMembers.role,
      addedAt: conversationMembers.createdAt,
    })
    .from(conversationMembers)
    .innerJoin(users, eq(users.id, conversationMembers.userId))
    .where(eq(conversationMembers.conversationId, conversationId))
    .orderBy(asc(conversationMembers.createdAt));
  return rows.map((r) => ({ user: { id: r.id, name: r.name }, role: r.role, addedAt: r.addedAt }));
}

/** Users whose id is `idOrName`, or whose name is exactly it (names need not be unique). */
export async function usersNamed(db: Db, idOrName: string): Promise<UserRef[]> {
  return db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(or(eq(users.id, idOrName), eq(users.name, idOrName)))
    .limit(2);
}

/** Users whose name starts with `prefix`, for picking whom to share with (never `exceptId`). */
export async function searchUsers(db: Db, prefix: string, exceptId: string): Promise<UserRef[]> {
  return db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(and(startsWithText(users.name, prefix), ne(users.id, exceptId)))
    .orderBy(asc(users.name))
    .limit(10);
}

const departureRow = (conversationId: string, userId: string) =>
  and(
    eq(conversationDepartures.conversationId, conversationId),
    eq(conversationDepartures.userId, userId),
  );

const membershipOf = (conversationId: string, userId: string) =>
  and(
    eq(conversationMembers.conversationId, conversationId),
    eq(conversationMembers.userId, userId),
  );

/** Adds the member, or changes their role; one who had left is a member again, not "left". */
export async function putMember(
  db: Db,
  conversationId: string,
  userId: string,
  role: MemberRole,
): Promise<void> {
  await db.batch([
    db
      .insert(conversationMembers)
      .values({ conversationId, userId, role })
      .onConflictDoUpdate({
        target: [conversationMembers.conversationId, conversationMembers.userId],
        set: { role },
      }),
    db.delete(conversationDepartures).where(departureRow(conversationId, userId)),
  ]);
}

/** The owner removes the member; false when they were not one. */
export const removeMember = (db: Db, conversationId: string, userId: string) =>
  endMembership(db, conversationId, userId, "removed");

/** The member leaves; false when they were not one. */
export const leaveConversation = (db: Db, conversationId: string, userId: string) =>
  endMembership(db, conversationId, userId, "left");

/**
 * Ends a membership and records why, in one batch: should the worker's word to the conversation
 * be lost, or a tab of theirs be offline at the time, the conversation's re-read and the tab's
 * next connection still say whether they left or were removed.
 */
async function endMembership(
  db: Db,
  conversationId: string,
  userId: string,
  reason: DepartureReason,
): Promise<boolean> {
  const [, gone] = await db.batch([
    // Recorded only for a member (the select finds no row otherwise).
    db
      .insert(conversationDepartures)
      .select(
        db
          .select({
            conversationId: conversationMembers.conversationId,
            userId: conversationMembers.userId,
            reason: sql<DepartureReason>`${reason}`.as("reason"),
            leftAt: sql<number>`${Date.now()}`.as("left_at"),
          })
          .from(conversationMembers)
          .where(membershipOf(conversationId, userId)),
      )
      .onConflictDoUpdate({
        target: [conversationDepartures.conversationId, conversationDepartures.userId],
        set: { reason, leftAt: Date.now() },
      }),
    db
      .delete(conversationMembers)
      .where(membershipOf(conversationId, userId))
      .returning({ userId: conversationMembers.userId }),
  ]);
  return gone.length > 0;
}

export type DepartureReason = (typeof conversationDepartures.$inferInsert)["reason"];

/** Conversations other people shared with the user, newest activity first. */
export async function sharedWith(db: Db, userId: string): Promise<SharedConversation[]> {
  const rows = await db
    .select({
      conversation: conversations,
      role: conversationMembers.role,
      ownerName: users.name,
    })
    .from(conversationMembers)
    .innerJoin(conversations, eq(conversations.id, conversationMembers.conversationId))
    .innerJoin(users, eq(users.id, conversations.userId))
    .where(eq(conversationMembers.userId, userId))
    .orderBy(desc(conversations.updatedAt))
    .limit(200);
  return rows.map((r) => ({
    // A viewer is not shown the owner's budgets (viewer-view.ts).
    conversation:
      r.role === "viewer"
        ? conversationForViewer(toConversation(r.conversation))
        : toConversation(r.conversation),
    role: r.role,
    owner: { id: r.conversation.userId, name: r.ownerName },
  }));
}
