// Artifact rows, reached through the conversation that owns them.
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { Artifact } from "../../../../durable-objects/protocol/rest";
import { notFound } from "../http/errors";
import type { Db } from "../../../../shared/db/client";
import { artifacts } from "../../../../shared/db/schema";

type Row = typeof artifacts.$inferSelect;
const Metadata = z.record(z.string(), z.unknown());

export function toArtifact(row: Row, withContent = false): Artifact {
  const metadata = Metadata.safeParse(JSON.parse(row.metadata));
  return {
    id: row.id,
    conversationId: row.conversationId,
    messageId: row.messageId,
    type: row.type,
    title: row.title,
    language: row.language,
    contentType: row.contentType,
    size: row.size,
    pinned: row.pinned,
    position: row.position,
    metadata: metadata.success ? metadata.data : {},
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    ...(withContent && { content: row.content }),
  };
}

/** An artifact of a conversation the caller's access was already checked for. */
export async function artifactOfConversation(
  db: Db,
  conversationId: string,
  id: string,
): Promise<Row> {
  const [row] = await db
    .select()
    .from(artifacts)
    .where(and(eq(artifacts.id, id), eq(artifacts.conversationId, conversationId)))
    .limit(1);
  if (!row) throw notFound("Artifact");
  return row;
}

export async function listArtifacts(db: Db, conversationId: string) {
  const rows = await db
    .select()
    .from(artifacts)
    .where(eq(artifacts.conversationId, conversationId))
    .orderBy(asc(artifacts.position), asc(artifacts.createdAt));
  return rows.map((r) => toArtifact(r));
}

export async function pinnedArtifacts(db: Db, conversationId: string) {
  const rows = await db
    .select()
    .from(artifacts)
    .where(and(eq(artifacts.conversationId, conversationId), eq(artifacts.pinned, true)))
    .orderBy(asc(artifacts.position));
  return rows;
}

/**
 * Changes an artifact; with `baseUpdatedAt`, only if it is still the version read then (else
 * undefined: someone saved in between). updatedAt moves forward with each edit of content or
 * title, even within one millisecond, so that a stale `baseUpdatedAt` never matches a newer one.
 */
export async function updateArtifact(
  db: Db,
  id: string,
  patch: { content?: string | undefined; title?: string | undefined; pinned?: boolean | undefined },
  baseUpdatedAt?: number,
): Promise<Artifact | undefined> {
  const [row] = await db
    .update(artifacts)
    .set({
      ...(patch.content !== undefined && {
        content: patch.content,
        size: new TextEncoder().encode(patch.content).length,
      }),
      ...(patch.title !== undefined && { title: patch.title }),
      ...(patch.pinned !== undefined && { pinned: patch.pinned }),
      // Pinning is no edit: it must not make an editor's open version stale.
      ...((patch.content !== undefined || patch.title !== undefined) && {
        updatedAt: sql`max(${Date.now()}, ${artifacts.updatedAt} + 1)`,
      }),
    })
    .where(
      and(
        eq(artifacts.id, id),
        baseUpdatedAt === undefined ? undefined : eq(artifacts.updatedAt, baseUpdatedAt),
      ),
    )
    .returning();
  return row && toArtifact(row, true);
}

/** Some of a conversation's artifacts with the content of text ones, in `ids`' order (an export's). */
export async function artifactsWithContent(
  db: Db,
  conversationId: string,
  ids: readonly string[],
): Promise<Artifact[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(artifacts)
    .where(and(eq(artifacts.conversationId, conversationId), inArray(artifacts.id, [...ids])));
  const byId = new Map(rows.map((r) => [r.id, toArtifact(r, true)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
