// A branch's artifacts keep their earlier versions: the origin's kept versions (migration 0015)
// are copied in D1 under the branch's artifact ids, so "Earlier versions" and "Restore" show
// the same history on both sides. The copy runs in SQL: version text never passes through here.
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../../shared/db/client";
import { artifactVersions as v } from "../../../shared/db/schema";

/** One statement per copied artifact, for the batch that makes the artifact rows. */
export const copyVersions = (db: Db, copies: readonly { originId: string; copyId: string }[]) =>
  copies.map(({ originId, copyId }) =>
    db.insert(v).select(
      db
        .select({
          id: sql<string>`lower(hex(randomblob(16)))`.as("id"),
          artifactId: sql<string>`${copyId}`.as("artifact_id"),
          title: v.title,
          content: v.content,
          size: v.size,
          savedAt: v.savedAt,
          createdAt: v.createdAt,
        })
        .from(v)
        .where(eq(v.artifactId, originId)),
    ),
  );
