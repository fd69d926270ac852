import { and, asc, eq, gt, inArray, lte } from "drizzle-orm";
import { z } from "zod";
import {
  type ArtifactState,
  type ChatMessage,
  MessagePart,
  withArtifactsNow,
} from "../../../../durable-objects/protocol/messages";
import type { Db } from "../../../../shared/db/client";
import { artifacts, messages, users } from "../../../../shared/db/schema";

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

/**
 * A conversation's messages after `afterSeq` (up to `upToSeq` when given), with their authors,
 * and their artifacts and attached files as they are now (see `artifactsNow`).
 */
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
  const page = rows.map((r) => toChatMessage(r.message, r.authorName));
  const now = await artifactsNow(db, conversationId, page);
  return page.map((m) => ({ ...m, content: withArtifactsNow(m.content, now) }));
}

/** D1 binds at most 100 parameters per statement. */
const IDS_PER_QUERY = 90;

/**
 * The artifacts `page` names, as they are now: a message keeps the title an artifact had when it
 * was written, and its row keeps the title it has now. One that is gone was deleted (a message
 * reaches D1 after its artifacts, through the Durable Object's outbox). One of another
 * conversation (a file of the origin, named by a branch made before branches took their own
 * copies) is left as the message recorded it: this conversation does not say what it is now.
 */
async function artifactsNow(
  db: Db,
  conversationId: string,
  page: readonly ChatMessage[],
): Promise<(artifactId: string) => ArtifactState | undefined> {
  const ids = [
    ...new Set(
      page.flatMap((m) =>
        m.content.flatMap((p) =>
          p.type === "artifact" || p.type === "attachment" ? [p.artifactId] : [],
        ),
      ),
    ),
  ];
  const found = new Map<string, { conversationId: string; title: string }>();
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
    const rows = await db
      .select({
        id: artifacts.id,
        conversationId: artifacts.conversationId,
        title: artifacts.title,
      })
      .from(artifacts)
      .where(inArray(artifacts.id, ids.slice(i, i + IDS_PER_QUERY)));
    for (const r of rows) found.set(r.id, r);
  }
  return (id) => {
    const row = found.get(id);
    if (!row) return { deleted: true };
    return row.conversationId === conversationId ? { title: row.title, deleted: false } : undefined;
  };
}
