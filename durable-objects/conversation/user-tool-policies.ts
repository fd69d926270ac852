// The tool policies a user set for all their conversations, kept in D1 (table tool_policies:
// tool "" stands for the whole server). Read by a turn, written by Settings and by "always allow".
import { z } from "zod";
import { ToolPolicy, type ToolPolicies } from "../protocol/tool-policy";

const Row = z.object({ server: z.string(), tool: z.string(), policy: ToolPolicy });

/** A user's policies; `user` is SQL for the user's id (a parameter, or a subquery). */
export const userPoliciesSql = (user = "?1") =>
  `SELECT server, tool, policy FROM tool_policies WHERE user_id = ${user}`;

export async function loadUserToolPolicies(db: D1Database, userId: string): Promise<ToolPolicies> {
  const { results } = await db.prepare(userPoliciesSql()).bind(userId).all();
  return policiesFromRows(results);
}

/** The policies in rows of `userPoliciesSql` (unreadable rows are left out). */
export function policiesFromRows(results: readonly unknown[]): ToolPolicies {
  const out: ToolPolicies = {};
  for (const raw of results) {
    const row = Row.safeParse(raw);
    if (!row.success) continue;
    const entry = (out[row.data.server] ??= {});
    if (row.data.tool === "") entry.server = row.data.policy;
    else entry.tools = { ...entry.tools, [row.data.tool]: row.data.policy };
  }
  return out;
}

/** Sets (or, with null, removes) one policy: a tool's, or the whole server's when `tool` is "". */
export async function setUserToolPolicy(
  db: D1Database,
  userId: string,
  server: string,
  tool: string,
  policy: ToolPolicy | null,
): Promise<void> {
  if (policy === null) {
    await db
      .prepare("DELETE FROM tool_policies WHERE user_id = ? AND server = ? AND tool = ?")
      .bind(userId, server, tool)
      .run();
    return;
  }
  await db
    .prepare(
      `INSERT INTO tool_policies (user_id, server, tool, policy, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(user_id, server, tool) DO UPDATE SET policy = excluded.policy, updated_at = excluded.updated_at`,
    )
    .bind(userId, server, tool, policy, Date.now())
    .run();
}
