// Moves rows the DO has written into D1. Each item is an idempotent upsert, so a retry after a
// partial failure lands every message and artifact exactly once. Loaded on the first flush, with
// drizzle-orm and the D1 schema: an isolate that only wakes an object does not build them.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { z } from "zod";
import { createDb, type Db } from "../../shared/db/client";
import { artifacts, conversations, messages, usage } from "../../shared/db/schema";
import { ChatMessage } from "../protocol/messages";
import { PLACEHOLDER_TITLE } from "./outbox";
import type { ConversationStore } from "./store";

export const OutboxItem = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("message"), conversationId: z.string(), message: ChatMessage }),
  z.object({
    kind: z.literal("artifact"),
    row: z.object({
      id: z.string(),
      conversationId: z.string(),
      messageId: z.string().nullable(),
      type: z.string(),
      title: z.string(),
      content: z.string().nullable(),
      r2Key: z.string().nullable(),
      contentType: z.string().nullable(),
      size: z.number().nullable(),
      language: z.string().nullable(),
      metadata: z.string(),
      position: z.number(),
      createdAt: z.number(),
    }),
  }),
  // Links a turn's artifacts to its message, once the message row exists.
  z.object({
    kind: z.literal("artifact_link"),
    messageId: z.string(),
    artifactIds: z.array(z.string()),
  }),
  z.object({
    kind: z.literal("touch"),
    conversationId: z.string(),
    at: z.number(),
    // Set on the first message: replaces the placeholder title.
    title: z.string().optional(),
  }),
  z.object({
    kind: z.literal("usage"),
    row: z.object({
      id: z.string(),
      userId: z.string(),
      conversationId: z.string(),
      provider: z.string(),
      model: z.string(),
      inputTokens: z.number(),
      outputTokens: z.number(),
      cachedTokens: z.number(),
      // Absent in rows queued before usage was metered per step and priced.
      turnId: z.string().optional(),
      messageId: z.string().optional(),
      step: z.number().int().optional(),
      reasoningTokens: z.number().optional(),
      costUsd: z.number().nullable().optional(),
      createdAt: z.number().optional(),
      // Set on a call cut short before its provider's count (absent in older rows: not).
      estimated: z.boolean().optional(),
      // Set on a call that completed without a usage report (its tokens are zero, not counted).
      unreported: z.boolean().optional(),
    }),
  }),
]);
export type OutboxItem = z.infer<typeof OutboxItem>;

function statementFor(db: Db, item: OutboxItem): BatchItem<"sqlite"> {
  switch (item.kind) {
    case "message": {
      const m = item.message;
      return db
        .insert(messages)
        .values({
          id: m.id,
          conversationId: item.conversationId,
          role: m.role,
          content: JSON.stringify(m.content),
          status: m.status,
          seq: m.seq,
          clientMessageId: m.clientMessageId ?? null,
          createdAt: m.createdAt,
          authorId: m.author?.id ?? null,
        })
        .onConflictDoUpdate({
          target: messages.id,
          set: { content: JSON.stringify(m.content), status: m.status },
        });
    }
    case "artifact":
      return db
        .insert(artifacts)
        .values({ ...item.row, updatedAt: item.row.createdAt })
        .onConflictDoNothing({ target: artifacts.id });
    case "artifact_link":
      return db
        .update(artifacts)
        .set({ messageId: item.messageId })
        .where(inArray(artifacts.id, item.artifactIds));
    case "touch":
      return db
        .update(conversations)
        .set({
          updatedAt: sql`max(${conversations.updatedAt}, ${item.at})`,
          ...(item.title && {
            title: sql`case when ${conversations.title} = ${PLACEHOLDER_TITLE} then ${item.title} else ${conversations.title} end`,
          }),
        })
        .where(and(eq(conversations.id, item.conversationId)));
    case "usage":
      return db.insert(usage).values(item.row).onConflictDoNothing({ target: usage.id });
  }
}

export interface FlushResult {
  flushed: number;
  remaining: number;
  error?: string;
}

/** Writes pending items to D1 in batches (one transaction each); stops at the first failure. */
export async function flushOutbox(
  store: ConversationStore,
  d1: D1Database,
  batchSize = 40,
): Promise<FlushResult> {
  const db = createDb(d1);
  let flushed = 0;
  for (;;) {
    const rows = store.pendingOutbox(batchSize);
    if (rows.length === 0) return { flushed, remaining: 0 };
    const statements = rows.map((r) =>
      statementFor(db, OutboxItem.parse({ kind: r.kind, ...JSON.parse(r.payload) })),
    );
    try {
      await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      store.markOutboxFailed(
        rows.map((r) => r.id),
        error,
      );
      return { flushed, remaining: store.outboxSize(), error };
    }
    store.removeOutbox(rows.map((r) => r.id));
    flushed += rows.length;
  }
}
