// A user's tree of branches around one conversation: up to its first origin, then every branch
// below that, so the versions of each message can be told apart (branches/alternatives.ts).
import { z } from "zod";
import { withoutBidiControls } from "../../../../durable-objects/protocol/display-text";
import type { TreeNode } from "../branches/alternatives";

const Row = z.object({
  id: z.string(),
  // Read with raw SQL, so cleaned here as the schema's title column cleans drizzle's reads.
  title: z.string().transform(withoutBidiControls),
  parent_conversation_id: z.string().nullable(),
  branch_seq: z.number().nullable(),
  created_at: z.number(),
});

export async function branchTree(d1: D1Database, userId: string, id: string): Promise<TreeNode[]> {
  const rows = await d1
    .prepare(
      `WITH RECURSIVE
         up(id, parent) AS (
           SELECT id, parent_conversation_id FROM conversations WHERE id = ?1 AND user_id = ?2
           UNION ALL
           SELECT c.id, c.parent_conversation_id FROM conversations c JOIN up ON c.id = up.parent
           WHERE c.user_id = ?2),
         tree(id) AS (
           SELECT id FROM up WHERE parent IS NULL OR parent NOT IN (SELECT id FROM conversations)
           UNION ALL
           SELECT c.id FROM conversations c JOIN tree ON c.parent_conversation_id = tree.id
           WHERE c.user_id = ?2)
       SELECT c.id, c.title, c.parent_conversation_id, c.branch_seq, c.created_at
       FROM conversations c JOIN tree ON c.id = tree.id`,
    )
    .bind(id, userId)
    .all();
  return z
    .array(Row)
    .parse(rows.results)
    .map((r) => ({
      id: r.id,
      title: r.title,
      parentId: r.parent_conversation_id,
      branchSeq: r.branch_seq,
      createdAt: r.created_at,
    }));
}
