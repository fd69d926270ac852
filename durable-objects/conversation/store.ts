// The Conversation DO's own SQLite: the event log, messages, turns and the outbox to D1.
// Single writer, synchronous, strongly consistent: the source of truth while a turn runs.
import { z } from "zod";
import {
  type ArtifactState,
  type ChatMessage,
  MessagePart,
  type MessageStatus,
  withArtifactsNow,
} from "../protocol/messages";
import { type NewServerEvent, ServerEvent, SendOptions } from "../protocol/wire";
import { USAGE_EVENTS } from "../protocol/roles";
import { createConversationTables } from "./schema";

/** Meta values up to this long are held in memory once read (see `getMeta`). */
const MAX_HELD_META_CHARS = 4096;

export type TurnStatus = "queued" | "running" | "done";
export interface TurnRow {
  id: string;
  userMessageId: string;
  assistantMessageId: string;
  /** Message order reserved for the answer, so queued turns keep question–answer pairs together. */
  assistantSeq: number;
  /** Sequence number of the user_message event that opened the turn. */
  startSeq: number;
  status: TurnStatus;
  options: SendOptions;
  createdAt: number;
}

export interface StoredToolCall {
  id: string;
  key: string;
  server: string;
  tool: string;
  arguments: unknown;
  status: "started" | "done" | "failed" | "error";
  result?: unknown;
}

export interface OutboxRow {
  id: number;
  kind: string;
  payload: string;
  attempts: number;
}

const MessageRow = z.object({
  id: z.string(),
  role: z.enum(["user", "assistant"]),
  content: z.string(),
  status: z.enum(["complete", "interrupted", "failed", "cancelled"]),
  seq: z.number(),
  client_message_id: z.string().nullable(),
  created_at: z.number(),
});

const stateOf = (e: Extract<ServerEvent, { type: "artifact_changed" }>): ArtifactState => ({
  title: e.title,
  deleted: e.change === "deleted",
});

export class ConversationStore {
  /** `sql` with every table of the object created (schema.ts): the other modules take it from here. */
  constructor(readonly sql: SqlStorage) {
    createConversationTables(sql);
  }

  // ---- event log ----
  /** The last sequence number given out: this object is the log's only writer. */
  #lastSeq: number | undefined;

  /** Stores an event under the next sequence number: one statement per event. */
  appendEvent(event: NewServerEvent): ServerEvent {
    const seq = this.lastSeq() + 1;
    const full = { ...event, seq, at: Date.now() } as ServerEvent;
    this.sql.exec(
      "INSERT INTO conv_events (seq, body, delta_of) VALUES (?, ?, ?)",
      seq,
      JSON.stringify(full),
      isDeltaEvent(full) ? full.messageId : null,
    );
    this.#lastSeq = seq;
    if (full.type === "artifact_changed")
      this.#artifactsChanged?.set(full.artifactId, stateOf(full));
    return full;
  }

  /** Artifacts changed over REST since they were made, as the log's latest word on each left them. */
  #artifactsChanged: Map<string, ArtifactState> | undefined;

  /**
   * What became of an artifact the messages name, renamed or deleted since (undefined: neither,
   * as far as this object heard). Messages keep the title they were written with; what the model
   * is told of earlier turns and what a branch copies read the artifact as it is now. Read from
   * the log once, then kept up to date as events are appended (this object is its only writer).
   */
  artifactNow(artifactId: string): ArtifactState | undefined {
    this.#artifactsChanged ??= new Map(
      this.sql
        .exec<{ body: string }>(
          "SELECT body FROM conv_events WHERE json_extract(body, '$.type') = 'artifact_changed' ORDER BY seq",
        )
        .toArray()
        .flatMap((r) => {
          const e = ServerEvent.safeParse(JSON.parse(r.body));
          return e.success && e.data.type === "artifact_changed"
            ? [[e.data.artifactId, stateOf(e.data)] as const]
            : [];
        }),
    );
    return this.#artifactsChanged.get(artifactId);
  }

  /** `messages` with their artifacts and attached files as they are now (`artifactNow`). */
  withArtifactsNow(messages: readonly ChatMessage[]): ChatMessage[] {
    const now = (id: string) => this.artifactNow(id);
    return messages.map((m) => {
      const content = withArtifactsNow(m.content, now);
      return content === m.content ? m : { ...m, content };
    });
  }

  eventsAfter(seq: number, limit = 10_000): ServerEvent[] {
    return this.sql
      .exec<{ body: string }>(
        "SELECT body FROM conv_events WHERE seq > ? ORDER BY seq LIMIT ?",
        seq,
        limit,
      )
      .toArray()
      .map((r) => ServerEvent.parse(JSON.parse(r.body)));
  }

  /**
   * Stored events after `seq` as the text they were sent as, for replay to clients. `compact`
   * leaves out the text and reasoning deltas of finished answers: each answer's
   * message_completed (stored with it) carries its whole content, so the folded transcript is
   * the same. `withoutUsage` (a viewer's replay) leaves out the usage events: usage is the
   * owner's spending, not a viewer's to see. Sequence numbers are those of the log either way.
   */
  replayAfter(
    seq: number,
    limit: number,
    compact = false,
    withoutUsage = false,
  ): { seq: number; body: string }[] {
    const deltas = compact
      ? ` AND (delta_of IS NULL OR delta_of NOT IN
               (SELECT id FROM conv_messages WHERE role = 'assistant'))`
      : "";
    // Only a viewer's replay pays for reading each event's type.
    const usage = withoutUsage
      ? ` AND json_extract(body, '$.type') NOT IN (${USAGE_EVENTS.map((t) => `'${t}'`).join(", ")})`
      : "";
    return this.sql
      .exec<{ seq: number; body: string }>(
        `SELECT seq, body FROM conv_events WHERE seq > ?${deltas}${usage} ORDER BY seq LIMIT ?`,
        seq,
        limit,
      )
      .toArray();
  }

  lastSeq(): number {
    return (this.#lastSeq ??=
      this.sql.exec<{ s: number | null }>("SELECT MAX(seq) AS s FROM conv_events").one().s ?? 0);
  }

  // ---- messages ----
  messageByClientId(clientMessageId: string): ChatMessage | null {
    const row = this.sql
      .exec("SELECT * FROM conv_messages WHERE client_message_id = ?", clientMessageId)
      .toArray()[0];
    return row ? toMessage(MessageRow.parse(row)) : null;
  }

  nextMessageSeq(): number {
    const m =
      this.sql.exec<{ s: number | null }>("SELECT MAX(seq) AS s FROM conv_messages").one().s ?? 0;
    const t =
      this.sql.exec<{ s: number | null }>("SELECT MAX(assistant_seq) AS s FROM conv_turns").one()
        .s ?? 0;
    return Math.max(m, t) + 1;
  }

  putMessage(m: ChatMessage): void {
    const content = JSON.stringify(m.content);
    this.sql.exec(
      `INSERT INTO conv_messages (id, role, content, status, seq, client_message_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET content = excluded.content, status = excluded.status`,
      m.id,
      m.role,
      content,
      m.status,
      m.seq,
      m.clientMessageId ?? null,
      m.createdAt,
    );
    if (!this.#messages) return;
    try {
      this.#messages = withStored(this.#messages, m, content);
    } catch {
      // A message its row would not read back as: the next read says so, as before the copy.
      this.#messages = undefined;
    }
  }

  /**
   * The stored messages as last read: every turn, title and summary reads them all, and parsing
   * them again each time costs a long conversation milliseconds per turn. This object is their
   * only writer (`putMessage`), which updates the copy as it writes the row.
   */
  #messages: readonly ChatMessage[] | undefined;

  /** Completed history, oldest first: what the model sees of earlier turns. */
  messages(): ChatMessage[] {
    this.#messages ??= this.sql
      .exec("SELECT * FROM conv_messages ORDER BY seq")
      .toArray()
      .map((r) => toMessage(MessageRow.parse(r)));
    return [...this.#messages];
  }

  // ---- turns ----
  addTurn(t: Omit<TurnRow, "status">): void {
    this.sql.exec(
      `INSERT INTO conv_turns (id, user_message_id, assistant_message_id, assistant_seq, start_seq, status, options, created_at)
       VALUES (?, ?, ?, ?, ?, 'queued', ?, ?)`,
      t.id,
      t.userMessageId,
      t.assistantMessageId,
      t.assistantSeq,
      t.startSeq,
      JSON.stringify(t.options),
      t.createdAt,
    );
  }

  /** Takes the turn lock: the oldest queued turn becomes running, unless one already runs. */
  startNextTurn(): TurnRow | null {
    if (this.runningTurn()) return null;
    const next = this.turnsWhere("status = 'queued' ORDER BY created_at, rowid LIMIT 1")[0];
    if (!next) return null;
    this.sql.exec("UPDATE conv_turns SET status = 'running' WHERE id = ?", next.id);
    return { ...next, status: "running" };
  }

  runningTurn(): TurnRow | null {
    return this.turnsWhere("status = 'running' LIMIT 1")[0] ?? null;
  }

  queuedCount(): number {
    return this.sql
      .exec<{ n: number }>("SELECT COUNT(*) AS n FROM conv_turns WHERE status = 'queued'")
      .one().n;
  }

  turnForUserMessage(userMessageId: string): TurnRow | null {
    return this.turnsWhere("user_message_id = ? LIMIT 1", userMessageId)[0] ?? null;
  }

  finishTurn(id: string): void {
    this.sql.exec("UPDATE conv_turns SET status = 'done' WHERE id = ?", id);
  }

  private turnsWhere(clause: string, ...bindings: (string | number)[]): TurnRow[] {
    return this.sql
      .exec<{
        id: string;
        user_message_id: string;
        assistant_message_id: string;
        assistant_seq: number;
        start_seq: number;
        status: TurnStatus;
        options: string;
        created_at: number;
      }>(`SELECT * FROM conv_turns WHERE ${clause}`, ...bindings)
      .toArray()
      .map((r) => ({
        id: r.id,
        userMessageId: r.user_message_id,
        assistantMessageId: r.assistant_message_id,
        assistantSeq: r.assistant_seq,
        startSeq: r.start_seq,
        status: r.status,
        options: SendOptions.parse(JSON.parse(r.options)),
        createdAt: r.created_at,
      }));
  }

  // ---- outbox ----
  enqueue(kind: string, payload: unknown): void {
    this.sql.exec(
      "INSERT INTO conv_outbox (kind, payload) VALUES (?, ?)",
      kind,
      JSON.stringify(payload),
    );
  }

  pendingOutbox(limit: number): OutboxRow[] {
    return this.sql
      .exec<{ id: number; kind: string; payload: string; attempts: number }>(
        "SELECT id, kind, payload, attempts FROM conv_outbox ORDER BY id LIMIT ?",
        limit,
      )
      .toArray();
  }

  /** One statement for the whole flush (each statement has its cost, a span in traces among it). */
  removeOutbox(ids: number[]): void {
    if (ids.length === 0) return;
    this.sql.exec(
      "DELETE FROM conv_outbox WHERE id IN (SELECT value FROM json_each(?))",
      JSON.stringify(ids),
    );
  }

  markOutboxFailed(ids: number[], error: string): void {
    for (const id of ids) {
      this.sql.exec(
        "UPDATE conv_outbox SET attempts = attempts + 1, last_error = ? WHERE id = ?",
        error,
        id,
      );
    }
  }

  outboxSize(): number {
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM conv_outbox").one().n;
  }

  // ---- loop checkpoints and tool calls ----
  /**
   * A turn's checkpoint, its messages in rows of their own: those from `messages.from` on are
   * (re)written, the ones before it kept. A step then writes what it added to the history, not
   * the whole history again, and no row comes near the 2 MB a row may hold.
   */
  saveCheckpoint(
    turnId: string,
    checkpoint: unknown,
    messages: { from: number; added: readonly unknown[] },
  ): void {
    this.sql.exec(
      "DELETE FROM conv_checkpoint_messages WHERE turn_id = ? AND idx >= ?",
      turnId,
      messages.from,
    );
    messages.added.forEach((m, i) =>
      this.sql.exec(
        "INSERT INTO conv_checkpoint_messages (turn_id, idx, message) VALUES (?, ?, ?)",
        turnId,
        messages.from + i,
        JSON.stringify(m),
      ),
    );
    this.sql.exec(
      "INSERT INTO conv_checkpoints (turn_id, state) VALUES (?, ?) ON CONFLICT(turn_id) DO UPDATE SET state = excluded.state",
      turnId,
      JSON.stringify(checkpoint),
    );
  }

  loadCheckpoint(turnId: string): { checkpoint: unknown; messages: unknown[] } | null {
    const row = this.sql
      .exec<{ state: string }>("SELECT state FROM conv_checkpoints WHERE turn_id = ?", turnId)
      .toArray()[0];
    if (!row) return null;
    const messages = this.sql
      .exec<{ message: string }>(
        "SELECT message FROM conv_checkpoint_messages WHERE turn_id = ? ORDER BY idx",
        turnId,
      )
      .toArray()
      .map((r) => JSON.parse(r.message) as unknown);
    return { checkpoint: JSON.parse(row.state), messages };
  }

  dropCheckpoint(turnId: string): void {
    this.sql.exec("DELETE FROM conv_checkpoints WHERE turn_id = ?", turnId);
    this.sql.exec("DELETE FROM conv_checkpoint_messages WHERE turn_id = ?", turnId);
  }

  startToolCall(
    r: { id: string; key: string; server: string; tool: string; arguments: unknown },
    turnId: string,
    step: number,
  ): void {
    this.sql.exec(
      "INSERT OR REPLACE INTO conv_tool_calls (id, turn_id, step, call_key, server, tool, arguments, status) VALUES (?, ?, ?, ?, ?, ?, ?, 'started')",
      r.id,
      turnId,
      step,
      r.key,
      r.server,
      r.tool,
      JSON.stringify(r.arguments),
    );
  }

  finishToolCall(id: string, status: "done" | "failed" | "error", result: unknown): void {
    this.sql.exec(
      "UPDATE conv_tool_calls SET status = ?, result = ? WHERE id = ?",
      status,
      JSON.stringify(result ?? null),
      id,
    );
  }

  toolCall(where: "id" | "key", value: string): StoredToolCall | null {
    const clause =
      where === "id"
        ? "id = ?"
        : // Only a successful result is reused: a failed call is worth trying again.
          "call_key = ? AND status = 'done' ORDER BY rowid DESC";
    const row = this.sql
      .exec<{
        id: string;
        call_key: string;
        server: string;
        tool: string;
        arguments: string;
        status: string;
        result: string | null;
      }>(
        `SELECT id, call_key, server, tool, arguments, status, result FROM conv_tool_calls WHERE ${clause} LIMIT 1`,
        value,
      )
      .toArray()[0];
    if (!row) return null;
    return {
      id: row.id,
      key: row.call_key,
      server: row.server,
      tool: row.tool,
      arguments: JSON.parse(row.arguments),
      status: row.status as StoredToolCall["status"],
      ...(row.result && { result: JSON.parse(row.result) }),
    };
  }

  /**
   * The stored results of these calls, by id, in one read: a turn's history looks up every
   * earlier call's result, which one read per call made a statement per call, every turn.
   */
  toolResults(ids: readonly string[]): Map<string, unknown> {
    if (ids.length === 0) return new Map();
    const rows = this.sql
      .exec<{ id: string; result: string }>(
        "SELECT id, result FROM conv_tool_calls WHERE result IS NOT NULL AND id IN (SELECT value FROM json_each(?))",
        JSON.stringify(ids),
      )
      .toArray();
    return new Map(rows.map((r) => [r.id, JSON.parse(r.result)]));
  }

  /**
   * The ids that are `id` or start with `id_`, read from the primary key's index: every string
   * that starts with `id_` sorts from `id_` up to, not including, `id` + "`" ("`" follows "_").
   */
  toolCallIdsLike(id: string): string[] {
    return this.sql
      .exec<{ id: string }>(
        "SELECT id FROM conv_tool_calls WHERE id = ? OR (id >= ? AND id < ?)",
        id,
        `${id}_`,
        `${id}\``,
      )
      .toArray()
      .map((r) => r.id);
  }

  /** Calls that started but never stored a result: cut off by an eviction or deploy. */
  unfinishedToolCalls(turnId: string): StoredToolCall[] {
    return this.sql
      .exec<{ id: string }>(
        "SELECT id FROM conv_tool_calls WHERE turn_id = ? AND status = 'started'",
        turnId,
      )
      .toArray()
      .map((r) => this.toolCall("id", r.id)!)
      .filter(Boolean);
  }

  // ---- meta ----
  /**
   * Meta values as last read or written, by key (null: no row). This store is the table's only
   * reader and writer, on the object's one thread, so the copy cannot go stale; a turn asks for
   * the same few keys a dozen times (its API base, each server's breaker and session, the learned
   * characters per token). Long values (a PDF's text) are read each time, never held.
   */
  #meta = new Map<string, string | null>();

  getMeta(key: string): string | null {
    if (this.#meta.has(key)) return this.#meta.get(key)!;
    const value =
      this.sql
        .exec<{ value: string }>("SELECT value FROM conv_meta WHERE key = ?", key)
        .toArray()[0]?.value ?? null;
    this.#keepMeta(key, value);
    return value;
  }

  /**
   * An unchanged value is not written again: each write is a commit of the object's storage (and
   * a row written on the bill), and the circuit breaker and the learned characters per token
   * store the same value at most turns.
   */
  setMeta(key: string, value: string): void {
    if (this.getMeta(key) === value) return;
    this.sql.exec(
      "INSERT INTO conv_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
      key,
      value,
    );
    this.#keepMeta(key, value);
  }

  #keepMeta(key: string, value: string | null): void {
    if (value === null || value.length <= MAX_HELD_META_CHARS) this.#meta.set(key, value);
    else this.#meta.delete(key);
  }

  /** Meta entries whose key starts with `prefix`. */
  metaWithPrefix(prefix: string): Array<{ key: string; value: string }> {
    return this.sql
      .exec<{ key: string; value: string }>(
        "SELECT key, value FROM conv_meta WHERE substr(key, 1, length(?)) = ?",
        prefix,
        prefix,
      )
      .toArray();
  }

  deleteMeta(key: string): void {
    this.sql.exec("DELETE FROM conv_meta WHERE key = ?", key);
    // Forgotten, not held as missing: each turn deletes keys of its own (recovery.ts).
    this.#meta.delete(key);
  }

  // ---- branches (branching/) ----
  /** The tool-call records with these ids, each with the step it was made in. */
  toolCallsWithStep(ids: readonly string[]): Array<StoredToolCall & { step: number }> {
    return ids.flatMap((id) => {
      const call = this.toolCall("id", id);
      const row = this.sql
        .exec<{ step: number }>("SELECT step FROM conv_tool_calls WHERE id = ?", id)
        .toArray()[0];
      return call && row ? [{ ...call, step: row.step }] : [];
    });
  }

  /** A finished record copied from the origin of a branch: reused like one made here. */
  copyToolCall(call: StoredToolCall & { step: number }, turnId: string): void {
    this.sql.exec(
      "INSERT OR IGNORE INTO conv_tool_calls (id, turn_id, step, call_key, server, tool, arguments, status, result) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
      call.id,
      turnId,
      call.step,
      call.key,
      call.server,
      call.tool,
      JSON.stringify(call.arguments),
      call.status,
      call.result === undefined ? null : JSON.stringify(call.result),
    );
  }
}

const isDeltaEvent = (
  e: ServerEvent,
): e is Extract<ServerEvent, { type: "text_delta" | "reasoning_delta" }> =>
  e.type === "text_delta" || e.type === "reasoning_delta";

/**
 * `messages` after `putMessage(m)` wrote `content`, as reading them all again would give: a new
 * message in its place by seq, a stored one with only its content and status replaced (what the
 * row's upsert changes). Only the written message is parsed, not the whole history again.
 */
function withStored(
  messages: readonly ChatMessage[],
  m: ChatMessage,
  content: string,
): readonly ChatMessage[] {
  const at = messages.findIndex((x) => x.id === m.id);
  const old = messages[at];
  const row = old ? { ...rowOf(old), content, status: m.status } : { ...rowOf(m), content };
  const stored = toMessage(MessageRow.parse(row));
  if (old) return messages.with(at, stored);
  const after = messages.findIndex((x) => x.seq > m.seq);
  return after < 0
    ? [...messages, stored]
    : [...messages.slice(0, after), stored, ...messages.slice(after)];
}

const rowOf = (m: ChatMessage) => ({
  id: m.id,
  role: m.role,
  status: m.status,
  seq: m.seq,
  client_message_id: m.clientMessageId ?? null,
  created_at: m.createdAt,
});

function toMessage(r: z.infer<typeof MessageRow>): ChatMessage {
  return {
    id: r.id,
    role: r.role,
    content: z.array(MessagePart).parse(JSON.parse(r.content)),
    status: r.status as MessageStatus,
    seq: r.seq,
    clientMessageId: r.client_message_id,
    createdAt: r.created_at,
  };
}
