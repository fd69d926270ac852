import { beforeAll, describe, expect, inject, it } from "vitest";
import type { ConversationUsage, UserUsage } from "../../../../durable-objects/protocol/usage";
import type { ServerEvent } from "../../../../durable-objects/protocol/wire";
import {
  api,
  createConversation,
  createUser,
  errorOf,
  type TestUser,
} from "../../../../tests/support/helpers";
import { fold, TestSocket, turnEnded } from "../../../../tests/support/ws-client";

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
