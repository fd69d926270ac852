import { beforeAll, describe, expect, inject, it } from "vitest";
import type { ConversationUsage, UserUsage } from "../../../../durable-objects/protocol/usage";
import type { ServerEvent } from "../../../../durable-objects/protocol/wire";
import {
  addMembers,
  api,
  createConversation,
  createUser,
  errorOf,
  type TestUser,
} from "../../../../tests/support/helpers";
import { fold, TestSocket, turnEnded } from "../../../../tests/support/ws-client";
import { SseReader } from "../../../../tests/support/sse-client";

let user: TestUser;

/** A user of their own per turn: a metered turn passes the tests' daily allowance. */
async function freshUser(): Promise<TestUser> {
  user = await createUser();
  const res = await api(user, "/api/mcp-servers", {
    method: "POST",
    json: { name: "everything", url: inject("everythingUrl") },
  });
  expect(res.status).toBe(201);
  return user;
}
beforeAll(freshUser);

/** The fixture's two model calls: a tool call (1000 in, 200 out), then the answer (1500, 300). */
async function meteredTurn(model: string) {
  await freshUser();
  const conv = await createConversation(user, { provider: "anthropic", model });
  const ws = await TestSocket.open(user, conv.id);
  ws.send({ type: "resume", lastSeq: 0 });
  ws.send({ type: "send", clientMessageId: crypto.randomUUID(), text: "metered question" });
  await ws.until(turnEnded, 30_000);
  ws.close();
  return { conv, events: ws.events() };
}

async function usageOf(conversationId: string, calls: number): Promise<ConversationUsage> {
  for (let i = 0; ; i++) {
    const res = await api(user, `/api/conversations/${conversationId}/usage`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as ConversationUsage;
    // The DO's outbox reaches D1 shortly after the turn.
    if (body.total.calls >= calls || i > 60) return body;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const updates = (events: ServerEvent[]) =>
  events.flatMap((e) => (e.type === "usage_updated" ? [e] : []));

describe("usage and cost", () => {
  it("meters each model call of a priced model live, and the totals per answer, conversation and day add up", async () => {
    const { conv, events } = await meteredTurn("claude-sonnet-4-20250514");
    const live = updates(events);
    // claude-sonnet-4: $3 in, $15 out per million tokens.
    expect(
      live.map((e) => [e.step, e.call.inputTokens, e.call.outputTokens, e.call.costUsd]),
    ).toEqual([
      [1, 1000, 200, 0.006],
      [2, 1500, 300, 0.009],
    ]);
    expect(live.at(-1)?.turn).toMatchObject({
      calls: 2,
      inputTokens: 2500,
      outputTokens: 500,
      unpricedCalls: 0,
    });
    expect(live.at(-1)?.turn.costUsd).toBeCloseTo(0.015, 10);
    const answer = fold(events).messages[1]!;
    expect(answer.activity?.usage?.outputTokens).toBe(500);

    const usage = await usageOf(conv.id, 2);
    expect(usage.total).toEqual({
      calls: 2,
      inputTokens: 2500,
      outputTokens: 500,
      cachedTokens: 0,
      reasoningTokens: 0,
      costUsd: 0.015,
      unpricedCalls: 0,
      estimatedCalls: 0,
      unreportedCalls: 0,
    });
    expect(usage.messages).toEqual([{ messageId: answer.id, ...usage.total }]);

    const today = new Date().toISOString().slice(0, 10);
    const res = await api(user, `/api/usage?from=${today}&to=${today}`);
    expect(res.status).toBe(200);
    const mine = (await res.json()) as UserUsage;
    // This user's only usage: one day, one model, the same sums.
    expect(mine.days).toEqual([
      { day: today, provider: "anthropic", model: "claude-sonnet-4-20250514", ...usage.total },
    ]);
    expect(mine.total).toEqual(usage.total);
  }, 60_000);

  it("shows the cost of a model without a price as unknown, never as zero", async () => {
    const { conv, events } = await meteredTurn("house-model-7");
    expect(updates(events).map((e) => e.call.costUsd)).toEqual([null, null]);
    const usage = await usageOf(conv.id, 2);
    expect(usage.total).toMatchObject({
      calls: 2,
      outputTokens: 500,
      costUsd: null,
      unpricedCalls: 2,
    });
  });

  it("keeps a conversation's usage from other users, and says what is wrong with a bad range", async () => {
    const conv = await createConversation(user);
    const other = await createUser();
    expect((await api(other, `/api/conversations/${conv.id}/usage`)).status).toBe(404);
    const bad = await api(user, "/api/usage?from=2026-02-01&to=2026-01-01");
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toMatch(/`from` must be on or before `to`/);
    const long = await api(user, "/api/usage?from=2020-01-01&to=2026-01-01");
    expect((await errorOf(long)).message).toMatch(/at most 366 days/);
    // A day its month does not have is refused, not read as a day of the next month.
    for (const day of ["2026-02-30", "2026-04-31"]) {
      const missing = await api(user, `/api/usage?from=${day}&to=2026-05-31`);
      expect(missing.status).toBe(400);
      expect((await errorOf(missing)).message).toMatch(/not a calendar day/);
    }
  });

  it("counts cached and reasoning tokens as OpenAI reports them, live and in the totals, and prices cached input at its rate", async () => {
    await freshUser();
    const conv = await createConversation(user, { provider: "openai", model: "gpt-5-mini" });
    const ws = await TestSocket.open(user, conv.id);
    ws.send({ type: "resume", lastSeq: 0 });
    ws.send({ type: "send", clientMessageId: "q", text: "cached and reasoning question" });
    await ws.until(turnEnded, 30_000);
    ws.close();
    const answer = fold(ws.events()).messages[1]!;
    expect(answer.status).toBe("complete");
    expect(answer.content).toContainEqual({
      type: "reasoning",
      text: "Weighing what the cache holds.",
    });
    // gpt-5-mini: $0.25 in, $0.025 cached in, $2 out per million: 400 + 800 cached in, 300 out.
    const expected = {
      calls: 1,
      inputTokens: 1200,
      outputTokens: 300,
      cachedTokens: 800,
      reasoningTokens: 120,
      unpricedCalls: 0,
    };
    const [live, ...more] = updates(ws.events());
    expect(more).toEqual([]);
    expect(live?.call).toMatchObject(expected);
    expect(live?.call.costUsd).toBeCloseTo(0.00072, 10);

    const usage = await usageOf(conv.id, 1);
    expect(usage.total).toMatchObject(expected);
    expect(usage.total.costUsd).toBeCloseTo(0.00072, 10);
    expect(usage.messages).toEqual([{ messageId: answer.id, ...usage.total }]);
  }, 60_000);
});

describe("usage in a shared conversation", () => {
  it("is the owner's and a participant's to see, live, replayed and over SSE, and never a viewer's", async () => {
    const owner = await freshUser();
    const [participant, viewer] = [await createUser(), await createUser()];
    const conv = await createConversation(owner, {
      provider: "anthropic",
      model: "claude-sonnet-4-20250514",
    });
    await addMembers(owner, conv.id, [
      [participant, "participant"],
      [viewer, "viewer"],
    ]);
    const open = (who: TestUser) => TestSocket.openSynced(who, conv.id);
    // Everyone follows the turn live.
    const [mine, theirs, watching] = [
      await open(owner),
      await open(participant),
      await open(viewer),
    ];
    mine.send({ type: "send", clientMessageId: crypto.randomUUID(), text: "metered question" });
    // And over SSE, opened as the turn starts: it follows the rest live.
    const following = new SseReader(await api(viewer, `/api/conversations/${conv.id}/events`));
    for (const ws of [mine, theirs, watching]) await ws.until(turnEnded, 30_000);
    const followed = await following.done(30_000);
    expect(followed.some((e) => e.type === "turn_ended")).toBe(true);
    expect(updates(followed)).toEqual([]);
    expect(updates(mine.events())).toHaveLength(2);
    expect(updates(theirs.events())).toHaveLength(2);
    // The viewer saw the answer, but not what it cost.
    expect(fold(watching.events()).messages[1]?.status).toBe("complete");
    expect(updates(watching.events())).toEqual([]);
    for (const ws of [mine, theirs, watching]) ws.close();

    // Opened later: the replay leaves usage out for the viewer alone.
    const replayed = await open(viewer);
    expect(replayed.events().some((e) => e.type === "message_completed")).toBe(true);
    expect(updates(replayed.events())).toEqual([]);
    replayed.close();
    const again = await open(participant);
    expect(updates(again.events())).toHaveLength(2);
    again.close();

    // Server-Sent Events: the same.
    const streamOf = async (who: TestUser) =>
      new SseReader(await api(who, `/api/conversations/${conv.id}/events`)).done();
    const viewerStream = await streamOf(viewer);
    expect(viewerStream.some((e) => e.type === "message_completed")).toBe(true);
    expect(updates(viewerStream)).toEqual([]);
    expect(updates(await streamOf(participant))).toHaveLength(2);

    // REST: the totals are refused to the viewer, as the events are.
    const refused = await api(viewer, `/api/conversations/${conv.id}/usage`);
    expect(refused.status).toBe(403);
    expect((await api(participant, `/api/conversations/${conv.id}/usage`)).status).toBe(200);
  });
});
