// Earlier versions of text artifacts: each save that changes the content keeps the content it
// replaced, so that the pane can show it and put it back. Only the newest KEPT are kept.
import { and, desc, eq, notInArray } from "drizzle-orm";
import type { Db } from "../../../../shared/db/client";
import { artifactVersions, type artifacts } from "../../../../shared/db/schema";
import type { ArtifactVersion } from "../../../../durable-objects/protocol/rest";
import { notFound } from "../http/errors";

export const KEPT_VERSIONS = 20;

type ArtifactRow = typeof artifacts.$inferSelect;
type Row = typeof artifactVersions.$inferSelect;

const toVersion = (row: Row, withContent: boolean): ArtifactVersion => ({
  id: row.id,
  artifactId: row.artifactId,
  title: row.title,
  size: row.size,
  savedAt: row.savedAt,
  ...(withContent && { content: row.content }),
});

/** Keeps `previous` (the artifact as it was before a save replaced its content). */
export async function keepVersion(db: Db, previous: ArtifactRow): Promise<void> {
  if (previous.content === null) return;
  await db.insert(artifactVersions).values({
    id: crypto.randomUUID(),
    artifactId: previous.id,
    title: previous.title,
    content: previous.content,
    size: previous.size ?? new TextEncoder().encode(previous.content).length,
    savedAt: previous.updatedAt,
  });
  const newest = db
    .select({ id: artifactVersions.id })
    .from(artifactVersions)
    .where(eq(artifactVersions.artifactId, previous.id))
    .orderBy(desc(artifactVersions.savedAt))
    .limit(KEPT_VERSIONS);
  await db
    .delete(artifactVersions)
    .where(
      and(eq(artifactVersions.artifactId, previous.id), notInArray(artifactVersions.id, newest)),
    );
}

/** An artifact's earlier versions, newest first, without their content. */
export async function listVersions(db: Db, artifactId: string): Promise<ArtifactVersion[]> {
  const rows = await db
    .select()
    .from(artifactVersions)
    .where(eq(artifactVersions.artifactId, artifactId))
    .orderBy(desc(artifactVersions.savedAt));
  return rows.map((r) => toVersion(r, false));
}

export async function getVersion(
  db: Db,
  artifactId: string,
  versionId: string,
): Promise<ArtifactVersion> {
  const [row] = await db
    .select()
    .from(artifactVersions)
    .where(and(eq(artifactVersions.artifactId, artifactId), eq(artifactVersions.id, versionId)))
    .limit(1);
  if (!row) throw notFound("Version");
  return toVersion(row, true);
}
