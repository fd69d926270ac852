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

it("the stored messages are read from SQLite once, and kept as stored when one is written", async () => {
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

    // A new message, and an answer stored again with its final content (its seq and time kept,
    // as the row's upsert keeps them), change the copy without reading the history again.
    store.putMessage(message(3, "second question"));
    store.putMessage({ ...message(2, "first answer, final"), seq: 9, createdAt: 9 });
    const after = store.messages();
    expect(reads).toBe(1);
    expect(after.map((m) => [m.id, m.seq, m.content])).toEqual([
      ["m1", 1, [{ type: "text", text: "first question" }]],
      ["m2", 2, [{ type: "text", text: "first answer, final" }]],
      ["m3", 3, [{ type: "text", text: "second question" }]],
    ]);
    // Exactly what reading SQLite again gives.
    expect(after).toEqual(new ConversationStore(state.storage.sql).messages());
    // A message stored out of order takes its place by seq.
    store.putMessage(message(0, "an earlier one"));
    expect(store.messages().map((m) => m.id)).toEqual(["m0", "m1", "m2", "m3"]);
    expect(store.messages()).toEqual(new ConversationStore(state.storage.sql).messages());
    expect(reads).toBe(1);

    // A message its row would not read back as is stored as before; reading then fails, as a
    // fresh read of the table does.
    const unreadable = { type: "no such part" } as unknown as ChatMessage["content"][number];
    expect(() => store.putMessage({ ...message(4, "x"), content: [unreadable] })).not.toThrow();
    expect(() => store.messages()).toThrow();
    expect(() => new ConversationStore(state.storage.sql).messages()).toThrow();
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
