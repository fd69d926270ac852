// The artifacts a read-only link may show: those of its conversation made up to the moment the
// link was made. Later artifacts stay private to the people the conversation is shared with.
import { and, asc, eq, lte } from "drizzle-orm";
import type { Db } from "../../../../shared/db/client";
import { artifacts } from "../../../../shared/db/schema";
import { notFound } from "../http/errors";
import { toArtifact } from "./artifacts";

export interface SnapshotCut {
  conversationId: string;
  /** When the link was made (ms): nothing created after it is shown. */
  createdAt: number;
}

const upToCut = (cut: SnapshotCut) =>
  and(eq(artifacts.conversationId, cut.conversationId), lte(artifacts.createdAt, cut.createdAt));

export async function snapshotArtifacts(db: Db, cut: SnapshotCut) {
  const rows = await db
    .select()
    .from(artifacts)
    .where(upToCut(cut))
    .orderBy(asc(artifacts.position), asc(artifacts.createdAt));
  return rows.map((row) => toArtifact(row));
}

/** One artifact of the snapshot; any other (later, or another conversation's) is a 404. */
export async function snapshotArtifact(db: Db, cut: SnapshotCut, id: string) {
  const [row] = await db
    .select()
    .from(artifacts)
    .where(and(upToCut(cut), eq(artifacts.id, id)))
    .limit(1);
  if (!row) throw notFound("Artifact");
  return row;
}
