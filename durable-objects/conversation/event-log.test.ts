import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { FIFTY_DELTA_REPLY, LONG_REPLY } from "../../tests/support/global-setup";
import { api, createConversation, createUser, type TestUser } from "../../tests/support/helpers";
import { SseReader } from "../../tests/support/sse-client";
import { fold, TestSocket, turnEnded } from "../../tests/support/ws-client";
import type { ServerEvent } from "../protocol/wire";
import type { Conversation } from "./conversation";
import { ConversationStore } from "./store";

const deltas = (events: ServerEvent[]) => events.filter((e) => e.type === "text_delta");

async function answered(user: TestUser, conversationId: string, texts: string[]) {
  for (const [i, text] of texts.entries()) {
    const res = await api(user, `/api/conversations/${conversationId}/chat`, {
      method: "POST",
      json: { clientMessageId: `m${i}`, text },
    });
    await new SseReader(res).done(30_000);
  }
}

/** Everything a socket receives after `resume` from `lastSeq`, until `synced`. */
async function resume(user: TestUser, conversationId: string, lastSeq: number, compact?: boolean) {
  const ws = await TestSocket.open(user, conversationId);
  ws.send({ type: "resume", lastSeq, ...(compact !== undefined && { compact }) });
  await ws.until((f) => f.some((x) => x.type === "synced"));
  ws.close();
  return ws.events();
}

const storedEvents = (conversationId: string) =>
  runInDurableObject(
    env.CONVERSATION.get(env.CONVERSATION.idFromName(conversationId)),
    (instance: Conversation) => instance.store.eventsAfter(0),
  );

describe("the event log merges an answer's deltas", () => {
  it("a 50-delta answer is a handful of stored events and frames, with the same text", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const live = await TestSocket.openSynced(user, conv.id);
    live.send({ type: "send", clientMessageId: "f1", text: "fifty deltas please" });
    await live.until(turnEnded);
    live.close();

    const stored = await storedEvents(conv.id);
    // The model sent 50 deltas; far fewer events were stored and sent.
    expect(deltas(stored).length).toBeLessThanOrEqual(10);
    expect(deltas(live.events())).toEqual(deltas(stored));
    // Each stored delta carries its run of text: together, exactly what the model said.
    expect(
      deltas(stored)
        .map((e) => (e.type === "text_delta" ? e.delta : ""))
        .join(""),
    ).toBe(FIFTY_DELTA_REPLY);
    expect(fold(stored)).toEqual(fold(live.events()));
    expect(fold(stored).messages[1]?.content).toEqual([{ type: "text", text: FIFTY_DELTA_REPLY }]);
    // Sequence numbers stay contiguous: a replay from any of them is exact.
    expect(stored.map((e) => e.seq)).toEqual(stored.map((_, i) => i + 1));
    for (const after of [0, 1, 2, 3, stored.length - 2]) {
      expect(await resume(user, conv.id, after)).toEqual(stored.slice(after));
    }
  }, 60_000);
});

describe("catch-up with `compact`", () => {
  it("a client gets finished answers without their deltas, and folds the same transcript", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    await answered(user, conv.id, ["long answer one", "long answer two", "fifty deltas"]);
    const stored = await storedEvents(conv.id);
    const full = await resume(user, conv.id, 0);
    expect(full).toEqual(stored);

    const compact = await resume(user, conv.id, 0, true);
    expect(deltas(compact)).toEqual([]);
    expect(compact.length).toBeLessThan(stored.length - deltas(stored).length + 1);
    expect(fold(compact)).toEqual(fold(stored));
    expect(fold(compact).messages.map((m) => m.content)).toContainEqual([
      { type: "text", text: LONG_REPLY },
    ]);
    // From any point: what the client had, plus the compact rest, is the whole transcript.
    for (const after of [1, 5, Math.floor(stored.length / 2), stored.length - 3]) {
      const rest = await resume(user, conv.id, after, true);
      expect(rest.every((e) => e.seq > after)).toBe(true);
      expect(fold([...stored.slice(0, after), ...rest]), `after ${after}`).toEqual(fold(stored));
    }

    // The same over Server-Sent Events, with the log's own ids.
    const sse = await new SseReader(
      await api(user, `/api/conversations/${conv.id}/events?compact=1`),
    ).done();
    expect(sse).toEqual(compact);
  }, 60_000);

  it("the turn in progress streams in full: its deltas are replayed until its answer is complete", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    await answered(user, conv.id, ["fifty deltas"]);
    const res = await api(user, `/api/conversations/${conv.id}/chat`, {
      method: "POST",
      json: { clientMessageId: "slow", text: "slow answer please" },
    });
    const running = new SseReader(res);
    await running.until((f) => f.filter((x) => x.event === "text_delta").length >= 2);
    const caughtUp = await resume(user, conv.id, 0, true);
    const turnStarts = caughtUp.filter((e) => e.type === "turn_started");
    const slowMessage = turnStarts.at(-1)?.type === "turn_started" ? turnStarts.at(-1) : undefined;
    expect(deltas(caughtUp).length).toBeGreaterThanOrEqual(2);
    expect(
      deltas(caughtUp).every(
        (e) =>
          e.type === "text_delta" &&
          slowMessage?.type === "turn_started" &&
          e.messageId === slowMessage.messageId,
      ),
    ).toBe(true);
    await running.done(30_000);
  }, 60_000);

  it("a `batch` resume sends the same events in one `replay` frame per page, then synced", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    await answered(user, conv.id, ["long answer one", "fifty deltas"]);
    for (const [after, compact] of [
      [0, true],
      [0, false],
      [3, true],
    ] as const) {
      const one = await resume(user, conv.id, after, compact);
      const ws = await TestSocket.open(user, conv.id);
      ws.send({ type: "resume", lastSeq: after, compact, batch: true });
      await ws.until((f) => f.some((x) => x.type === "synced"));
      ws.close();
      // One frame for the whole replay (under 1,000 events), then synced.
      expect(ws.frames.map((f) => f.type)).toEqual(["replay", "synced"]);
      const [replay] = ws.frames;
      expect(replay?.type === "replay" && replay.events).toEqual(one);
    }
  }, 60_000);

  it("a catch-up reads the log once per page: a short page is its end", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(conv.id));
    const reads = vi.spyOn(ConversationStore.prototype, "replayAfter");
    try {
      // 10, 1,010 and 3,510 events: one, two and four pages.
      for (const seeded of [10, 1_000, 2_500]) {
        await runInDurableObject(stub, (instance: Conversation) => {
          const from = instance.store.lastSeq();
          while (instance.store.lastSeq() < from + seeded)
            instance.store.appendEvent({ type: "notice", level: "info", message: "seeded" });
        });
        const all = await storedEvents(conv.id);
        reads.mockClear();
        const ws = await TestSocket.open(user, conv.id);
        ws.send({ type: "resume", lastSeq: 0, batch: true });
        await ws.until((f) => f.some((x) => x.type === "synced"));
        ws.close();
        // Every event once, in order, in pages of 1,000, each page one read of the log.
        const pages = Math.ceil(all.length / 1000);
        const replays = ws.frames.flatMap((f) => (f.type === "replay" ? [f.events] : []));
        expect(replays.flat()).toEqual(all);
        expect(replays).toHaveLength(pages);
        expect(reads, `${all.length} events`).toHaveBeenCalledTimes(pages);
      }
    } finally {
      reads.mockRestore();
    }
  }, 60_000);

  it("refuses a compact value it does not know, saying what it takes", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const res = await api(user, `/api/conversations/${conv.id}/events?compact=yes`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toContain("compact=1");
  });
});
