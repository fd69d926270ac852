// R2 bytes can be shared: a branch's artifacts are new rows over its origin's objects. Bytes are
// deleted only when no artifact row left anywhere still points at them.
import { z } from "zod";

const KeyRow = z.object({ r2_key: z.string() });

/** Of `keys`, those some artifact row still references, rows matching `leaving` aside. */
export async function keysStillReferenced(
  d1: D1Database,
  keys: readonly string[],
  leaving: { conversationId: string } | { artifactId: string },
): Promise<Set<string>> {
  const [column, value] =
    "conversationId" in leaving
      ? ["conversation_id", leaving.conversationId]
      : ["id", leaving.artifactId];
  const kept = new Set<string>();
  // D1 takes at most 100 bound parameters per statement.
  for (let i = 0; i < keys.length; i += 90) {
    const chunk = keys.slice(i, i + 90);
    const rows = await d1
      .prepare(
        `SELECT DISTINCT r2_key FROM artifacts WHERE ${column} != ? AND r2_key IN (${chunk.map(() => "?").join(", ")})`,
      )
      .bind(value, ...chunk)
      .all();
    for (const row of z.array(KeyRow).parse(rows.results)) kept.add(row.r2_key);
  }
  return kept;
}

/** Deletes the objects among `keys` that no other row references (see keysStillReferenced). */
export async function deleteUnsharedBytes(
  d1: D1Database,
  bucket: R2Bucket,
  keys: readonly string[],
  leaving: { conversationId: string } | { artifactId: string },
): Promise<void> {
  const unique = [...new Set(keys)];
  if (unique.length === 0) return;
  const kept = await keysStillReferenced(d1, unique, leaving);
  const gone = unique.filter((k) => !kept.has(k));
  for (let i = 0; i < gone.length; i += 1000) await bucket.delete(gone.slice(i, i + 1000));
}
