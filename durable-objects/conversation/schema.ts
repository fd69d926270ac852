// Every table of the Conversation object's own SQLite, created together in one statement the first
// time the object stores anything (ConversationStore's constructor). Each statement is a round of
// the runtime's SQL API (and, under `wrangler dev`, a span written to the local trace store), and
// an object runs this again each time it wakes: one `exec` of the whole script instead of one per
// table. The modules that use a table (approvals.ts, audit-log.ts, …) take the SQLite from the
// store, so the table is there before they are.

const TABLES = `
CREATE TABLE IF NOT EXISTS conv_events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL, delta_of TEXT);
CREATE TABLE IF NOT EXISTS conv_messages (
  id TEXT PRIMARY KEY, role TEXT NOT NULL, content TEXT NOT NULL, status TEXT NOT NULL,
  seq INTEGER NOT NULL UNIQUE, client_message_id TEXT UNIQUE, created_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS conv_turns (
  id TEXT PRIMARY KEY, user_message_id TEXT NOT NULL, assistant_message_id TEXT NOT NULL,
  assistant_seq INTEGER NOT NULL, start_seq INTEGER NOT NULL,
  status TEXT NOT NULL, options TEXT NOT NULL, created_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS conv_turns_status ON conv_turns(status, created_at);
CREATE TABLE IF NOT EXISTS conv_outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, payload TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0, last_error TEXT);
CREATE TABLE IF NOT EXISTS conv_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS conv_checkpoints (turn_id TEXT PRIMARY KEY, state TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS conv_checkpoint_messages (
  turn_id TEXT NOT NULL, idx INTEGER NOT NULL, message TEXT NOT NULL, PRIMARY KEY (turn_id, idx));
CREATE TABLE IF NOT EXISTS conv_tool_calls (
  id TEXT PRIMARY KEY, turn_id TEXT NOT NULL, step INTEGER NOT NULL, call_key TEXT NOT NULL,
  server TEXT NOT NULL, tool TEXT NOT NULL, arguments TEXT NOT NULL, status TEXT NOT NULL, result TEXT);
CREATE INDEX IF NOT EXISTS conv_tool_calls_key ON conv_tool_calls(call_key, status);
CREATE TABLE IF NOT EXISTS conv_message_authors (
  message_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, name TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS conv_audit (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, entry TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS conv_approvals (
  id TEXT PRIMARY KEY, turn_id TEXT NOT NULL, message_id TEXT NOT NULL, call_id TEXT NOT NULL,
  step INTEGER NOT NULL, user_id TEXT NOT NULL, server TEXT NOT NULL, tool TEXT NOT NULL,
  arguments TEXT NOT NULL, requested_at INTEGER NOT NULL, expires_at INTEGER NOT NULL,
  status TEXT NOT NULL, note TEXT, decided_via TEXT, decided_by TEXT, decided_at INTEGER);
CREATE TABLE IF NOT EXISTS conv_elicitations (
  id TEXT PRIMARY KEY, turn_id TEXT NOT NULL, message_id TEXT NOT NULL, call_id TEXT NOT NULL,
  user_id TEXT NOT NULL, server TEXT NOT NULL, tool TEXT NOT NULL, mode TEXT NOT NULL,
  message TEXT NOT NULL, requested_schema TEXT, url TEXT, server_elicitation_id TEXT,
  requested_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, status TEXT NOT NULL,
  content TEXT, answered_via TEXT, answered_by TEXT, answered_at INTEGER);
CREATE TABLE IF NOT EXISTS ws_used_tickets (id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);
`;

/** Creates whatever table is missing (all of them, in a new object). */
export function createConversationTables(sql: SqlStorage): void {
  sql.exec(TABLES);
  addDeltaColumn(sql);
}

/** Whether this object has ever stored a conversation (without creating the tables). */
export function hasConversationTables(sql: SqlStorage): boolean {
  return (
    sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'conv_turns'").toArray()
      .length > 0
  );
}

/** Logs stored before `delta_of` existed get the column; their old rows are simply never left out. */
function addDeltaColumn(sql: SqlStorage): void {
  const columns = sql.exec<{ name: string }>("SELECT name FROM pragma_table_info('conv_events')");
  if (columns.toArray().some((c) => c.name === "delta_of")) return;
  sql.exec("ALTER TABLE conv_events ADD COLUMN delta_of TEXT");
}
