import { and, asc, eq, gt, lte } from "drizzle-orm";
import { z } from "zod";
import { type ChatMessage, MessagePart } from "../../../../durable-objects/protocol/messages";
import type { Db } from "../../../../shared/db/client";
import { messages, users } from "../../../../shared/db/schema";

const Parts = z.array(MessagePart);

export function toChatMessage(
  row: typeof messages.$inferSelect,
  authorName?: string | null,
): ChatMessage {
  const parts = Parts.safeParse(JSON.parse(row.content));
  return {
    id: row.id,
    role: row.role,
    content: parts.success ? parts.data : [{ type: "text", text: "(unreadable content)" }],
    status: row.status,
    seq: row.seq,
    clientMessageId: row.clientMessageId,
    createdAt: row.createdAt,
    ...(row.authorId && authorName != null && { author: { id: row.authorId, name: authorName } }),
  };
}

/** A conversation's messages after `afterSeq` (up to `upToSeq` when given), with their authors. */
export async function listMessages(
  db: Db,
  conversationId: string,
  afterSeq: number,
  limit: number,
  upToSeq?: number,
) {
  const rows = await db
    .select({ message: messages, authorName: users.name })
    .from(messages)
    .leftJoin(users, eq(users.id, messages.authorId))
    .where(
      and(
        eq(messages.conversationId, conversationId),
        gt(messages.seq, afterSeq),
        upToSeq === undefined ? undefined : lte(messages.seq, upToSeq),
      ),
    )
    .orderBy(asc(messages.seq))
    .limit(limit);
  return rows.map((r) => toChatMessage(r.message, r.authorName));
}
