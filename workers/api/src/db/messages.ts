import { and, asc, eq, gt } from "drizzle-orm";
import { z } from "zod";
import { type ChatMessage, MessagePart } from "../../../../durable-objects/protocol/messages";
import type { Db } from "../../../../shared/db/client";
import { messages } from "../../../../shared/db/schema";

const Parts = z.array(MessagePart);

export function toChatMessage(row: typeof messages.$inferSelect): ChatMessage {
  const parts = Parts.safeParse(JSON.parse(row.content));
  return {
    id: row.id,
    role: row.role,
    content: parts.success ? parts.data : [{ type: "text", text: "(unreadable content)" }],
    status: row.status,
    seq: row.seq,
    clientMessageId: row.clientMessageId,
    createdAt: row.createdAt,
  };
}

export async function listMessages(
  db: Db,
  conversationId: string,
  afterSeq: number,
  limit: number,
) {
  const rows = await db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), gt(messages.seq, afterSeq)))
    .orderBy(asc(messages.seq))
    .limit(limit);
  return rows.map(toChatMessage);
}
