// D1 rows of MCP sign-in: one connection per (user, server) and the sign-ins in progress.
// Raw SQL over the D1 binding so the API worker and the Conversation DO share it.
import { z } from "zod";

export const ConnectionStatus = z.enum(["needs_sign_in", "connected", "sign_in_again", "error"]);
export type ConnectionStatus = z.infer<typeof ConnectionStatus>;

const ConnectionRow = z.object({
  server_id: z.string(),
  user_id: z.string(),
  status: ConnectionStatus,
  error_code: z.string().nullable(),
  error_message: z.string().nullable(),
  client_info: z.string().nullable(),
  tokens: z.string().nullable(),
  discovery: z.string().nullable(),
  redirect_url: z.string().nullable(),
  scopes: z.string().nullable(),
  // Optional so rows read before the step-up migration still parse.
  requested_scopes: z.string().nullish(),
  account: z.string().nullable(),
  expires_at: z.number().nullable(),
});
export type ConnectionRow = z.infer<typeof ConnectionRow>;

type Writable = Partial<Omit<ConnectionRow, "server_id" | "user_id">>;

export interface ConnectionKey {
  userId: string;
  serverId: string;
}

export async function readConnection(db: D1Database, key: ConnectionKey) {
  const raw = await db
    .prepare("SELECT * FROM mcp_oauth_connections WHERE server_id = ? AND user_id = ?")
    .bind(key.serverId, key.userId)
    .first();
  const row = raw ? ConnectionRow.safeParse(raw) : null;
  return row?.success ? row.data : null;
}

export async function connectionsOfUser(db: D1Database, userId: string) {
  const rows = await db
    .prepare("SELECT * FROM mcp_oauth_connections WHERE user_id = ?")
    .bind(userId)
    .all();
  return rows.results.flatMap((r) => {
    const row = ConnectionRow.safeParse(r);
    return row.success ? [row.data] : [];
  });
}

/** Creates the row (as needs_sign_in unless `fields` says otherwise) or updates `fields`. */
export async function writeConnection(db: D1Database, key: ConnectionKey, fields: Writable) {
  const cols = Object.keys(fields) as (keyof Writable)[];
  const values = cols.map((c) => fields[c] ?? null);
  const insertCols = ["server_id", "user_id", "updated_at", ...cols];
  const status = cols.includes("status") ? [] : ["status"];
  const sql =
    `INSERT INTO mcp_oauth_connections (${[...insertCols, ...status].join(", ")}) ` +
    `VALUES (${[...insertCols, ...status].map(() => "?").join(", ")}) ` +
    `ON CONFLICT (server_id, user_id) DO UPDATE SET updated_at = excluded.updated_at` +
    cols.map((c) => `, ${c} = excluded.${c}`).join("");
  await db
    .prepare(sql)
    .bind(
      key.serverId,
      key.userId,
      Date.now(),
      ...values,
      ...(status.length ? ["needs_sign_in"] : []),
    )
    .run();
}

/**
 * Updates an existing row only; a server we never signed in to gets no row from a turn. With
 * `sealedTokens`, only while the row still holds those tokens.
 */
export async function updateConnection(
  db: D1Database,
  key: ConnectionKey,
  fields: Writable,
  sealedTokens?: string,
) {
  const cols = Object.keys(fields) as (keyof Writable)[];
  if (cols.length === 0) return;
  const guard = sealedTokens === undefined ? "" : " AND tokens = ?";
  await db
    .prepare(
      `UPDATE mcp_oauth_connections SET updated_at = ?${cols.map((c) => `, ${c} = ?`).join("")} WHERE server_id = ? AND user_id = ?${guard}`,
    )
    .bind(
      Date.now(),
      ...cols.map((c) => fields[c] ?? null),
      key.serverId,
      key.userId,
      ...(sealedTokens === undefined ? [] : [sealedTokens]),
    )
    .run();
}

/**
 * Forgets tokens only if they are still the ones we read: another conversation may have just
 * refreshed them (refresh tokens rotate), and its fresh pair must survive our failed attempt.
 */
export async function forgetTokensIfUnchanged(
  db: D1Database,
  key: ConnectionKey,
  sealedTokens: string,
) {
  await db
    .prepare(
      "UPDATE mcp_oauth_connections SET tokens = NULL, expires_at = NULL, updated_at = ? WHERE server_id = ? AND user_id = ? AND tokens = ?",
    )
    .bind(Date.now(), key.serverId, key.userId, sealedTokens)
    .run();
}

export async function deleteConnection(db: D1Database, key: ConnectionKey) {
  await db.batch([
    db
      .prepare("DELETE FROM mcp_oauth_connections WHERE server_id = ? AND user_id = ?")
      .bind(key.serverId, key.userId),
    db
      .prepare("DELETE FROM mcp_oauth_pending WHERE server_id = ? AND user_id = ?")
      .bind(key.serverId, key.userId),
  ]);
}

export const PENDING_TTL_MS = 10 * 60_000;

export const Display = z.enum(["popup", "redirect"]);
export type Display = z.infer<typeof Display>;

const PendingRow = z.object({
  state_hash: z.string(),
  server_id: z.string(),
  user_id: z.string(),
  code_verifier: z.string().nullable(),
  // Sealed registration the sign-in started with (null in rows from before it was kept).
  client_info: z.string().nullish(),
  display: Display,
  created_at: z.number(),
});
export type PendingRow = z.infer<typeof PendingRow>;

export async function insertPending(
  db: D1Database,
  row: Omit<PendingRow, "created_at">,
): Promise<void> {
  const now = Date.now();
  await db.batch([
    // Sign-ins nobody finished are dropped as new ones start.
    db.prepare("DELETE FROM mcp_oauth_pending WHERE created_at < ?").bind(now - PENDING_TTL_MS),
    db
      .prepare(
        "INSERT INTO mcp_oauth_pending (state_hash, server_id, user_id, code_verifier, client_info, display, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      )
      .bind(
        row.state_hash,
        row.server_id,
        row.user_id,
        row.code_verifier,
        row.client_info ?? null,
        row.display,
        now,
      ),
  ]);
}

/** Removes and returns the sign-in started with this state: a state works once. */
export async function takePending(db: D1Database, stateHash: string): Promise<PendingRow | null> {
  const raw = await db
    .prepare("DELETE FROM mcp_oauth_pending WHERE state_hash = ? RETURNING *")
    .bind(stateHash)
    .first();
  const row = raw ? PendingRow.safeParse(raw) : null;
  return row?.success ? row.data : null;
}
