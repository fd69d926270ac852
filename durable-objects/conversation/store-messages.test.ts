import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import type { ChatMessage } from "../protocol/messages";
import type { Conversation } from "./conversation";
import { parseStoredResult } from "./history";
import { historyOptions } from "./history-options";
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

/**
 * A fresh object's store over its SQLite with the statements matching `counted` counted
 * (`count()`); `sql` is the same SQLite, uncounted, for a second store that reads it afresh.
 */
async function withCountingStore(
  counted: RegExp,
  check: (store: ConversationStore, count: () => number, sql: SqlStorage) => void,
) {
  const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(crypto.randomUUID()));
  await runInDurableObject(stub, (_instance: Conversation, state) => {
    let n = 0;
    const sql = countedSql(state.storage.sql, (query) => {
      if (counted.test(query)) n++;
    });
    check(new ConversationStore(sql), () => n, state.storage.sql);
  });
}

it("the stored messages are read from SQLite once, and kept as stored when one is written", async () => {
  // Every read of the messages table counted.
  await withCountingStore(/FROM conv_messages ORDER BY seq/, (store, reads, sql) => {
    store.putMessage(message(1, "first question"));
    store.putMessage(message(2, "first answer"));

    // A turn, its title and its summary each ask for the history: one read between them.
    const history = [store.messages(), store.messages(), store.messages()];
    expect(reads()).toBe(1);
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
    expect(reads()).toBe(1);
    expect(after.map((m) => [m.id, m.seq, m.content])).toEqual([
      ["m1", 1, [{ type: "text", text: "first question" }]],
      ["m2", 2, [{ type: "text", text: "first answer, final" }]],
      ["m3", 3, [{ type: "text", text: "second question" }]],
    ]);
    // Exactly what reading SQLite again gives.
    expect(after).toEqual(new ConversationStore(sql).messages());
    // A message stored out of order takes its place by seq.
    store.putMessage(message(0, "an earlier one"));
    expect(store.messages().map((m) => m.id)).toEqual(["m0", "m1", "m2", "m3"]);
    expect(store.messages()).toEqual(new ConversationStore(sql).messages());
    expect(reads()).toBe(1);

    // A message its row would not read back as is stored as before; reading then fails, as a
    // fresh read of the table does.
    const unreadable = { type: "no such part" } as unknown as ChatMessage["content"][number];
    expect(() => store.putMessage({ ...message(4, "x"), content: [unreadable] })).not.toThrow();
    expect(() => store.messages()).toThrow();
    expect(() => new ConversationStore(sql).messages()).toThrow();
  });
});

it("a meta value set again unchanged is not written again", async () => {
  await withCountingStore(/^INSERT INTO conv_meta/, (store, writes) => {
    store.setMeta("breaker:mcp-remote", '{"failures":0}');
    store.setMeta("breaker:mcp-remote", '{"failures":0}');
    expect(writes()).toBe(1);
    store.setMeta("breaker:mcp-remote", '{"failures":1}');
    expect(writes()).toBe(2);
    expect(store.getMeta("breaker:mcp-remote")).toBe('{"failures":1}');
  });
});

it("a meta value is read from SQLite once, and follows every write and delete made here", async () => {
  await withCountingStore(/^SELECT value FROM conv_meta/, (store, reads, sql) => {
    const fresh = () => new ConversationStore(sql);

    // A turn asks for its API base a few times: one read, and none for a key read as missing.
    store.setMeta("api_base", "https://app.example");
    expect([store.getMeta("api_base"), store.getMeta("api_base")]).toEqual([
      "https://app.example",
      "https://app.example",
    ]);
    expect([store.getMeta("breaker:x"), store.getMeta("breaker:x")]).toEqual([null, null]);
    expect(reads()).toBe(2);

    // Written here: the next read is the new value, as SQLite has it, without reading it.
    store.setMeta("breaker:x", '{"failures":1}');
    expect(store.getMeta("breaker:x")).toBe('{"failures":1}');
    expect(reads()).toBe(2);
    // Deleted here: forgotten (a turn deletes keys of its own), so the next read asks SQLite.
    store.deleteMeta("api_base");
    expect(store.getMeta("api_base")).toBeNull();
    expect(reads()).toBe(3);
    expect([fresh().getMeta("breaker:x"), fresh().getMeta("api_base")]).toEqual([
      '{"failures":1}',
      null,
    ]);

    // A long value (a PDF's text) is not held: each read goes to SQLite (setting it read once,
    // to compare).
    const text = "page ".repeat(2_000);
    store.setMeta("pdf_text:a1", text);
    expect(reads()).toBe(4);
    expect([store.getMeta("pdf_text:a1"), store.getMeta("pdf_text:a1")]).toEqual([text, text]);
    expect(reads()).toBe(6);
  });
});

it("a flushed outbox is removed in one statement, whatever its size", async () => {
  await withCountingStore(/^DELETE FROM conv_outbox/, (store, deletes) => {
    for (let i = 0; i < 150; i++) store.enqueue("touch", { i });
    const rows = store.pendingOutbox(200);
    expect(rows).toHaveLength(150);

    store.removeOutbox(rows.slice(0, 120).map((r) => r.id));

    expect(deletes()).toBe(1);
    const left = store.pendingOutbox(200).map((r) => JSON.parse(r.payload) as { i: number });
    expect(left.map((p) => p.i)).toEqual(Array.from({ length: 30 }, (_, k) => 120 + k));
  });
});

it("a history's earlier tool results are read in one statement, however many calls it has", async () => {
  await withCountingStore(/FROM conv_tool_calls/, (store, reads) => {
    const forModel = (text: string) => ({
      forModel: [{ type: "text", text }],
      summary: text,
      isError: false,
    });
    for (let i = 0; i < 40; i++) {
      const id = `call_${i}`;
      store.startToolCall({ id, key: `k${i}`, server: "s", tool: "t", arguments: { i } }, "t1", 1);
      if (i !== 7) store.finishToolCall(id, i === 3 ? "error" : "done", forModel(`result ${i}`));
    }
    const conversation = {
      id: "c",
      userId: "u",
      provider: "openai" as const,
      model: "gpt-4o-mini",
      mode: "normal" as const,
      settings: {},
    };
    const ids = [...Array.from({ length: 40 }, (_, i) => `call_${i}`), "never_stored"];

    const results = historyOptions(store, conversation).toolResults!(ids);

    expect(reads()).toBe(1);
    // Each as reading it by itself gives; a call with no result (cut off) and an unknown id have none.
    expect([...results.keys()]).toHaveLength(39);
    expect(results.get("call_12")).toEqual(forModel("result 12"));
    expect(results.get("call_3")).toEqual(forModel("result 3"));
    expect(results.has("call_7")).toBe(false);
    expect(results.has("never_stored")).toBe(false);
    for (const id of ids)
      expect(results.get(id)).toEqual(parseStoredResult(store.toolCall("id", id)?.result));
  });
});

it("an earlier result's saved artifacts are named as they are now: renamed, or left out once deleted", async () => {
  await withCountingStore(/json_extract/, (store, reads, sql) => {
    store.startToolCall({ id: "c1", key: "k1", server: "s", tool: "t", arguments: {} }, "t1", 1);
    store.finishToolCall("c1", "done", {
      forModel: [{ type: "text", text: "a long result" }],
      summary: "long",
      isError: false,
      artifacts: [
        { id: "a1", title: "Old name" },
        { id: "a2", title: "Soon gone" },
      ],
    });
    // Asked before any change: nothing to say, and the log is read once from then on.
    expect(store.artifactNow("a1")).toBeUndefined();
    const changed = (artifactId: string, change: "title" | "deleted", title: string) =>
      store.appendEvent({
        type: "artifact_changed",
        artifactId,
        change,
        title,
        pinned: false,
        updatedAt: 1,
      });
    changed("a1", "title", "New name");
    changed("a2", "deleted", "Soon gone");
    const conversation = {
      id: "c",
      userId: "u",
      provider: "openai" as const,
      model: "gpt-4o-mini",
      mode: "normal" as const,
      settings: {},
    };
    const results = historyOptions(store, conversation).toolResults!(["c1"]);
    expect(results.get("c1")?.artifacts).toEqual([{ id: "a1", title: "New name" }]);
    expect(reads()).toBe(1);
    // A store that reads the log afresh (the object woke up again) knows the same.
    const woken = new ConversationStore(sql);
    expect(woken.artifactNow("a1")).toEqual({ title: "New name", deleted: false });
    expect(woken.artifactNow("a2")).toEqual({ title: "Soon gone", deleted: true });
  });
});
