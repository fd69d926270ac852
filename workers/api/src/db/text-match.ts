// Case-insensitive text matching for search boxes, without LIKE: D1 refuses a LIKE pattern over
// 50 bytes ("LIKE or GLOB pattern too complex"), which a search of a few words reaches, and LIKE
// would read `%` and `_` in the user's text as wildcards. `instr` takes the text literally and has
// no length limit. Both sides go through SQLite's `lower`, which folds ASCII only, as LIKE did.
import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/** Rows whose `column` holds `text` anywhere, ignoring ASCII case. */
export const containsText = (column: SQLiteColumn, text: string): SQL =>
  sql`instr(lower(${column}), lower(${text})) > 0`;

/** Rows whose `column` starts with `text`, ignoring ASCII case. */
export const startsWithText = (column: SQLiteColumn, text: string): SQL =>
  sql`instr(lower(${column}), lower(${text})) = 1`;
