import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import type { ChatMessage } from "../protocol/messages";
import type { Conversation } from "./conversation";
import { ConversationStore } from "./store";
import { countedSql } from "../../tests/support/counted-sql";

const message = (seq: number, text: string): ChatMessage => ({
  id: `m${seq}`,
  role: seq % 2 === 1 ? "user" : "assistant",
  content: [{ type: "text", text }],
  status: "complete",
  seq,
  clientMessageId: null,
  createdAt: seq,
});

it("the stored messages are read from SQLite once until one is stored, and always as stored", async () => {
  const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(crypto.randomUUID()));
  await runInDurableObject(stub, (_instance: Conversation, state) => {
    // The object's SQLite, with every read of the messages table counted.
    let reads = 0;
    const sql = countedSql(state.storage.sql, (query) => {
      if (/FROM conv_messages ORDER BY seq/.test(query)) reads++;
    });
    const store = new ConversationStore(sql);
    store.putMessage(message(1, "first question"));
    store.putMessage(message(2, "first answer"));

    // A turn, its title and its summary each ask for the history: one read between them.
    const history = [store.messages(), store.messages(), store.messages()];
    expect(reads).toBe(1);
    expect(history.map((h) => h.map((m) => m.id))).toEqual([
      ["m1", "m2"],
      ["m1", "m2"],
      ["m1", "m2"],
    ]);
    // What one caller does with its list does not change another's.
    history[0]!.pop();
    expect(store.messages().map((m) => m.id)).toEqual(["m1", "m2"]);

    // A new message, and an answer stored again with its final content, are read afresh.
    store.putMessage(message(3, "second question"));
    store.putMessage({ ...message(2, "first answer, final"), status: "complete" });
    const after = store.messages();
    expect(reads).toBe(2);
    expect(after.map((m) => [m.id, m.content])).toEqual([
      ["m1", [{ type: "text", text: "first question" }]],
      ["m2", [{ type: "text", text: "first answer, final" }]],
      ["m3", [{ type: "text", text: "second question" }]],
    ]);
  });
});

it("a meta value set again unchanged is not written again", async () => {
  const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(crypto.randomUUID()));
  await runInDurableObject(stub, (_instance: Conversation, state) => {
    let writes = 0;
    const sql = countedSql(state.storage.sql, (query) => {
      if (/^INSERT INTO conv_meta/.test(query)) writes++;
    });
    const store = new ConversationStore(sql);
    store.setMeta("breaker:mcp-remote", '{"failures":0}');
    store.setMeta("breaker:mcp-remote", '{"failures":0}');
    expect(writes).toBe(1);
    store.setMeta("breaker:mcp-remote", '{"failures":1}');
    expect(writes).toBe(2);
    expect(store.getMeta("breaker:mcp-remote")).toBe('{"failures":1}');
  });
});
