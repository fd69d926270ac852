// A branch's title: its origin's with the next free "(branch n)", so that the two sidebar rows
// (and the two headers) can be told apart. A branch of a branch numbers on from the same name.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../../shared/db/client";
import { conversations } from "../../../shared/db/schema";

const SUFFIX = / \(branch (\d+)\)$/;
/** Room for the suffix within the 200 characters a title may have. */
const MAX_BASE = 180;

export async function branchTitle(db: Db, userId: string, originTitle: string): Promise<string> {
  const base = originTitle.replace(SUFFIX, "").slice(0, MAX_BASE);
  const prefix = `${base} (branch `;
  const rows = await db
    .select({ title: conversations.title })
    .from(conversations)
    .where(
      and(
        eq(conversations.userId, userId),
        // Not LIKE: D1 refuses a pattern over 50 characters. SQLite counts code points.
        sql`substr(${conversations.title}, 1, ${[...prefix].length}) = ${prefix}`,
      ),
    );
  const taken = rows.flatMap(({ title }) => {
    const n = SUFFIX.exec(title)?.[1];
    return n && title === `${prefix}${n})` ? [Number(n)] : [];
  });
  return `${prefix}${Math.max(0, ...taken) + 1})`;
}
