import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import type { LoopState } from "../loop/types";
import type { NeutralMessage } from "../providers/types";
import type { Conversation } from "./conversation";
import { dropCheckpoint, loadCheckpoint, saveCheckpoint, toolCallLog } from "./loop-storage";
import { ConversationStore } from "./store";
import { countedSql } from "../../tests/support/counted-sql";

const said = (i: number): NeutralMessage => ({
  role: i % 2 === 0 ? "user" : "assistant",
  content: [{ type: "text", text: `message ${i} `.repeat(100) }],
});

const stateWith = (messages: NeutralMessage[], step: number): LoopState => ({
  step,
  messages,
  shown: [],
  artifactParts: [],
  graphs: [],
  noProgressSteps: 0,
  formatterRepairs: 0,
});

/** Runs `check` in a fresh conversation object with a store whose writes are counted by table. */
async function withCountedStore(
  check: (store: ConversationStore, writes: Map<string, number>, sql: SqlStorage) => void,
) {
  const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(crypto.randomUUID()));
  await runInDurableObject(stub, (_instance: Conversation, state) => {
    const writes = new Map<string, number>();
    const sql = countedSql(state.storage.sql, (query) => {
      const table = /^\s*INSERT INTO (\w+)/i.exec(query)?.[1];
      if (table) writes.set(table, (writes.get(table) ?? 0) + 1);
    });
    check(new ConversationStore(sql), writes, state.storage.sql);
  });
}

it("a step's checkpoint writes the messages the step added, not the turn's whole history again", async () => {
  await withCountedStore((store, writes, sql) => {
    const history = Array.from({ length: 400 }, (_, i) => said(i));
    saveCheckpoint(store, "t1", stateWith(history, 1));
    expect(writes.get("conv_checkpoint_messages")).toBe(400);

    // The next step appends a call and its result: two rows, and a small checkpoint row.
    const next = [...history, said(400), said(401)];
    saveCheckpoint(store, "t1", stateWith(next, 2));
    expect(writes.get("conv_checkpoint_messages")).toBe(402);
    const row = sql
      .exec<{ n: number }>("SELECT length(state) AS n FROM conv_checkpoints WHERE turn_id = 't1'")
      .one();
    expect(row.n).toBeLessThan(2_000);

    // What a restart reads back is the whole state, in order.
    const loaded = loadCheckpoint(store, "t1");
    expect(loaded?.state.step).toBe(2);
    expect(loaded?.state.messages).toEqual(next);

    // A turn resumed from that checkpoint holds other objects: its next step writes them all.
    const resumed = loaded!.state;
    saveCheckpoint(store, "t1", {
      ...resumed,
      messages: [...resumed.messages, said(402)],
      step: 3,
    });
    expect(writes.get("conv_checkpoint_messages")).toBe(402 + 403);
    expect(loadCheckpoint(store, "t1")?.state.messages).toHaveLength(403);

    dropCheckpoint(store, "t1");
    expect(loadCheckpoint(store, "t1")).toBeNull();
    const left = sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM conv_checkpoint_messages");
    expect(left.one().n).toBe(0);
  });
});

it("a tool step's checkpoint keeps the turn's own messages, not the history the turn began with", async () => {
  await withCountedStore((store, writes) => {
    const history = Array.from({ length: 400 }, (_, i) => said(i));
    const own = [said(400), said(401)];
    saveCheckpoint(store, "t5", { ...stateWith([...history, ...own], 1), turnFrom: 400 });
    expect(writes.get("conv_checkpoint_messages")).toBe(2);

    // Read back, it says the history is to be assembled again (loop.ts does).
    const loaded = loadCheckpoint(store, "t5")!.state;
    expect(loaded.messages).toEqual(own);
    expect(loaded.historyLeftOut).toBe(true);
    expect(loaded.turnFrom).toBeUndefined();

    // Its next checkpoint, before the loop put the history back, still leaves it out.
    saveCheckpoint(store, "t5", { ...loaded, messages: [...own, said(402)], step: 2 });
    expect(loadCheckpoint(store, "t5")!.state).toMatchObject({
      messages: [...own, said(402)],
      historyLeftOut: true,
    });
  });
});

it("a turn's answer is checkpointed without its history, and a restart finishes with that answer", async () => {
  await withCountedStore((store, writes, sql) => {
    const history = Array.from({ length: 200 }, (_, i) => said(i));
    const final = [{ type: "text" as const, text: "The answer." }];
    // A plain answer's only checkpoint: the step streamed its text and the turn is done.
    saveCheckpoint(store, "t3", { ...stateWith(history, 1), final });
    expect(writes.get("conv_checkpoint_messages") ?? 0).toBe(0);
    expect(loadCheckpoint(store, "t3")?.state.final).toEqual(final);

    // A tool turn's answer: the rows its steps wrote go with it, as at the turn's end.
    saveCheckpoint(store, "t4", stateWith(history, 1));
    saveCheckpoint(store, "t4", { ...stateWith([...history, said(200)], 2), final });
    const rows = sql.exec<{ n: number }>(
      "SELECT COUNT(*) AS n FROM conv_checkpoint_messages WHERE turn_id = 't4'",
    );
    expect(rows.one().n).toBe(0);
    expect(loadCheckpoint(store, "t4")?.state).toMatchObject({ step: 2, final });
  });
});

it("a checkpoint written with its messages inline (before they had rows) still resumes its turn", async () => {
  await withCountedStore((store, _writes, sql) => {
    const state = stateWith([said(0), said(1)], 1);
    sql.exec(
      "INSERT INTO conv_checkpoints (turn_id, state) VALUES (?, ?)",
      "old",
      JSON.stringify({ seq: 7, state }),
    );
    expect(loadCheckpoint(store, "old")).toEqual({ seq: 7, state });
  });
});

it("a checkpoint whose message rows are not all there is not trusted: the turn starts again", async () => {
  await withCountedStore((store, _writes, sql) => {
    saveCheckpoint(store, "t2", stateWith([said(0), said(1), said(2)], 1));
    sql.exec("DELETE FROM conv_checkpoint_messages WHERE turn_id = 't2' AND idx = 2");
    expect(loadCheckpoint(store, "t2")).toBeNull();
  });
});

it("finds the recorded ids that are a call's id or it with a suffix, and no others", async () => {
  await withCountedStore((store) => {
    const calls = toolCallLog(store);
    for (const id of ["call_0", "call_0_2", "call_0_10", "call_01", "call_0`", "call_1", "call"])
      calls.start({ id, key: id, server: "s", tool: "t", arguments: {} }, "t1", 1);
    expect(calls.idsLike("call_0").sort()).toEqual(["call_0", "call_0_10", "call_0_2"]);
    expect(calls.idsLike("call_0_2")).toEqual(["call_0_2"]);
    expect(calls.idsLike("other")).toEqual([]);
  });
});
