import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, createConversation, createUser, type TestUser } from "../../tests/support/helpers";
import { isTurnEnd, range, SseReader } from "../../tests/support/sse-client";
import { fold } from "../../tests/support/ws-client";
import type { ServerEvent } from "../protocol/wire";
import type { Conversation } from "./conversation";

const chat = (user: TestUser, id: string, clientMessageId: string, text: string) =>
  api(user, `/api/conversations/${id}/chat`, {
    method: "POST",
    json: { clientMessageId, text },
  }).then((res) => new SseReader(res));

const events = (user: TestUser, id: string, after?: number, how: "header" | "query" = "header") =>
  api(
    user,
    `/api/conversations/${id}/events${after !== undefined && how === "query" ? `?after=${after}` : ""}`,
    after !== undefined && how === "header" ? { headers: { "last-event-id": String(after) } } : {},
  ).then((res) => new SseReader(res));

const ends = (events: ServerEvent[]) => events.filter(isTurnEnd);

describe("POST /chat", () => {
  it("streams from its own message to the end of its own turn, even behind a queued turn", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const first = await chat(user, conv.id, "q1", "slow answer please");
    await first.until((f) => f.some((x) => x.event === "text_delta"));
    const second = await chat(user, conv.id, "q2", "and then this");

    const firstEvents = await first.done();
    expect(ends(firstEvents)).toHaveLength(1);
    expect(firstEvents.at(-1)?.type).toBe("turn_ended");
    const firstTurn = firstEvents.find((e) => e.type === "turn_started");

    const secondEvents = await second.done();
    const secondUser = secondEvents[0];
    expect(secondUser).toMatchObject({ type: "user_message", message: { clientMessageId: "q2" } });
    // It ends at its own turn's end, not at the one that was running when it was sent.
    expect(ends(secondEvents)).toHaveLength(2);
    expect(secondEvents.at(-1)).toMatchObject({ type: "turn_ended" });
    expect(secondEvents.at(-1)).not.toMatchObject({ turnId: firstTurn?.turnId });
    // In order, each once, with nothing skipped from its message on.
    expect(secondEvents.map((e) => e.seq)).toEqual(
      range(secondUser!.seq - 1, secondEvents.at(-1)!.seq),
    );

    // Sent again (the same clientMessageId): the same stream, not a second turn.
    const again = await (await chat(user, conv.id, "q2", "and then this")).done();
    expect(again).toEqual(secondEvents);
    // The same id with other text is a mistake, said so, rather than answered with the old message.
    const reused = await api(user, `/api/conversations/${conv.id}/chat`, {
      method: "POST",
      json: { clientMessageId: "q2", text: "something else entirely" },
    });
    expect(reused.status).toBe(409);
    expect(((await reused.json()) as { error: { message: string } }).error.message).toContain(
      "'q2' is already used for another message",
    );
  }, 60_000);
});

describe("a Last-Event-ID past the end of the log", () => {
  it("is refused before anything is stored, on POST /chat and GET /events alike", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const done = await (await chat(user, conv.id, "f1", "hello")).done();
    const last = done.at(-1)!.seq;

    const post = await api(user, `/api/conversations/${conv.id}/chat`, {
      method: "POST",
      headers: { "last-event-id": String(last + 1000) },
      json: { clientMessageId: "f2", text: "hello again" },
    });
    expect(post.status).toBe(400);
    const refusal = (await post.json()) as { error: { code: string; message: string } };
    expect(refusal.error.code).toBe("validation_failed");
    expect(refusal.error.message).toContain(`past this conversation's last event, ${last}`);
    const get = await api(user, `/api/conversations/${conv.id}/events?after=${last + 1}`);
    expect(get.status).toBe(400);

    // Nothing was stored for the refused message; the log's own last id still resumes.
    const messages = (await (await api(user, `/api/conversations/${conv.id}/messages`)).json()) as {
      items: Array<{ role: string }>;
    };
    expect(messages.items.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(await (await events(user, conv.id, last)).done()).toEqual([]);
  }, 60_000);
});

describe("GET /events", () => {
  it("opened while a turn runs, follows it and ends exactly once after the last queued turn", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const first = await chat(user, conv.id, "e1", "slow answer please");
    await first.until((f) => f.some((x) => x.event === "text_delta"));
    const queued = await chat(user, conv.id, "e2", "a second question");
    const follower = await events(user, conv.id);
    await follower.until((f) => f.some((x) => x.event === "text_delta"));
    expect(first.ended).toBe(false); // opened mid-turn

    const all = await follower.done(20_000);
    expect(all.map((e) => e.seq)).toEqual(range(0, all.length));
    expect(ends(all)).toHaveLength(2);
    expect(all.at(-1)?.type).toBe("turn_ended");
    expect(fold(all).messages.map((m) => [m.role, m.status])).toEqual([
      ["user", "complete"],
      ["assistant", "complete"],
      ["user", "complete"],
      ["assistant", "complete"],
    ]);
    // The queued question's own stream is the tail of the same log, from its message on.
    const fromQueued = await queued.done();
    expect(fromQueued).toEqual(all.slice(fromQueued[0]!.seq - 1));
    expect(ends(await first.done())).toHaveLength(1);
  }, 60_000);

  it("replays the whole log from any Last-Event-ID across finished turns and a running one", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    for (const n of [1, 2, 3]) await (await chat(user, conv.id, `r${n}`, `question ${n}`)).done();
    const running = await chat(user, conv.id, "r4", "slow answer please");
    await running.until((f) => f.some((x) => x.event === "text_delta"));
    const midTurn = running.frames.at(-1)!.id;

    // Opened mid-turn from every point of the log: each follows to the end of the running turn.
    const followers = await Promise.all(
      range(-1, midTurn).map((after, i) =>
        events(user, conv.id, after, i % 2 ? "query" : "header"),
      ),
    );
    const log = await followers[0]!.done(20_000);
    expect(log.map((e) => e.seq)).toEqual(range(0, log.length));
    expect(ends(log)).toHaveLength(4);
    expect(log.at(-1)).toMatchObject({ type: "turn_ended", status: "complete" });
    for (const [after, follower] of followers.entries())
      expect(await follower.done(), `after ${after}`).toEqual(log.slice(after));

    // Idle now: from every point the rest of the log, then the stream ends.
    for (const after of range(-1, log.length)) {
      const replay = await (await events(user, conv.id, after)).done();
      expect(replay, `idle, after ${after}`).toEqual(log.slice(after));
    }
  }, 60_000);

  it("replays tens of thousands of events, in pages, handing over to live events with no gap", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const SEEDED = 25_000;
    const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(conv.id));
    await runInDurableObject(stub, (instance: Conversation) => {
      for (let i = 1; i <= SEEDED; i++)
        instance.store.appendEvent({ type: "notice", level: "info", message: `seeded ${i}` });
    });

    // Turns run while the backlog is replayed: live events arrive during the replay, and the
    // second (queued, slow) turn is still running when the replay has caught up.
    const running = await chat(user, conv.id, "big1", "long answer please");
    const queued = await chat(user, conv.id, "big2", "slow answer please");
    const whileRunning = await events(user, conv.id, 0);
    await whileRunning.until((f) => f.length >= SEEDED, 60_000);
    expect(queued.ended).toBe(false);

    const all = await whileRunning.done(60_000);
    expect(all.map((e) => e.seq)).toEqual(range(0, all.length));
    expect(ends(all)).toHaveLength(2);
    expect(all.at(-1)?.type).toBe("turn_ended");
    const first = await running.done();
    expect(all.slice(SEEDED, SEEDED + first.length)).toEqual(first);
    const second = await queued.done();
    expect(all.slice(second[0]!.seq - 1)).toEqual(second);

    // Idle: the same log from a point past the first page, and nothing after the end.
    const tail = await (await events(user, conv.id, 12_345)).done(60_000);
    expect(tail).toEqual(all.slice(12_345));
    expect(await (await events(user, conv.id, all.length)).done()).toEqual([]);
  }, 120_000);

  it("ends open streams when the conversation is deleted, with no made-up event", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const turn = await chat(user, conv.id, "d1", "slow answer please");
    await turn.until((f) => f.some((x) => x.event === "text_delta"));
    const follower = await events(user, conv.id);
    await follower.until((f) => f.some((x) => x.event === "text_delta"));

    expect((await api(user, `/api/conversations/${conv.id}`, { method: "DELETE" })).status).toBe(
      204,
    );
    for (const stream of [follower, turn]) {
      const got = await stream.done();
      expect(got.map((e) => e.seq)).toEqual(range(0, got.length));
    }
  }, 60_000);
});
