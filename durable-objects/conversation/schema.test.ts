import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { countedSql } from "../../tests/support/counted-sql";
import type { Conversation } from "./conversation";
import { hasConversationTables } from "./schema";
import { ConversationStore } from "./store";

const TABLES = [
  "conv_approvals",
  "conv_audit",
  "conv_checkpoint_messages",
  "conv_checkpoints",
  "conv_elicitations",
  "conv_events",
  "conv_message_authors",
  "conv_messages",
  "conv_meta",
  "conv_outbox",
  "conv_tool_calls",
  "conv_turns",
  "ws_used_tickets",
];

const tablesOf = (sql: SqlStorage) =>
  sql
    .exec<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND (name LIKE 'conv\\_%' ESCAPE '\\' OR name = 'ws_used_tickets') ORDER BY name",
    )
    .toArray()
    .map((r) => r.name);

it("a new object creates every table of its own in one statement, and again (nothing new) when it wakes", async () => {
  const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(crypto.randomUUID()));
  await runInDurableObject(stub, (_instance: Conversation, state) => {
    expect(hasConversationTables(state.storage.sql)).toBe(false);
    const statements: string[] = [];
    const sql = countedSql(state.storage.sql, (query) => statements.push(query));

    new ConversationStore(sql);
    expect(tablesOf(state.storage.sql)).toEqual(TABLES);
    // The tables, then the check that an old log has its `delta_of` column: two statements,
    // not one per table.
    expect(statements).toHaveLength(2);
    expect(statements[0]).toContain("CREATE TABLE IF NOT EXISTS conv_approvals");

    // What an evicted object runs as it wakes: the same two, which change nothing.
    statements.length = 0;
    new ConversationStore(sql).putMessage({
      id: "m1",
      role: "user",
      content: [{ type: "text", text: "still here" }],
      status: "complete",
      seq: 1,
      createdAt: 1,
    });
    expect(statements.filter((q) => /CREATE|ALTER/.test(q))).toHaveLength(1);
    expect(new ConversationStore(state.storage.sql).messages().map((m) => m.id)).toEqual(["m1"]);
  });
});
