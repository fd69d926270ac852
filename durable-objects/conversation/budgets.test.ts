import { describe, expect, inject, it } from "vitest";
import type { ChatMessage } from "../protocol/messages";
import type { ServerEvent } from "../protocol/wire";
import type { UsageTotals } from "../protocol/usage";
import { EMPTY_USAGE } from "../protocol/usage";
import {
  addMembers,
  api,
  createConversation,
  createUser,
  errorOf,
  type TestUser,
} from "../../tests/support/helpers";
import { fold, TestSocket, turnEnded } from "../../tests/support/ws-client";
import { SseReader } from "../../tests/support/sse-client";
import { allowanceRefusal } from "./daily-allowance";

// The tests' daily allowance is 2,000 tokens (workers/api/vitest.config.ts); the metered
// fixture's turn spends 1,200 tokens on its first call and 1,800 on its second.

async function userWithTools(): Promise<TestUser> {
  const user = await createUser();
  const res = await api(user, "/api/mcp-servers", {
    method: "POST",
    json: { name: "everything", url: inject("everythingUrl") },
  });
  expect(res.status).toBe(201);
  return user;
}

async function meteredTurn(user: TestUser, settings: Record<string, unknown> = {}) {
  const conv = await createConversation(user, { settings });
  const ws = await TestSocket.open(user, conv.id);
  ws.send({ type: "resume", lastSeq: 0 });
  const clientMessageId = crypto.randomUUID();
  ws.send({ type: "send", clientMessageId, text: "metered question" });
  await ws.until(turnEnded, 30_000);
  return { conv, ws, clientMessageId };
}

async function usedToday(user: TestUser, calls: number): Promise<UsageTotals> {
  for (let i = 0; ; i++) {
    const res = await api(user, "/api/usage");
    const { total } = (await res.json()) as { total: UsageTotals };
    if (total.calls >= calls || i > 60) return total;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("budgets", () => {
  it("a turn with a tiny token budget ends through the forced formatter, and says which budget ended it", async () => {
    const user = await userWithTools();
    // Only echo is offered: a call is then about 850 tokens by the estimate, so the first
    // step and the wrap-up fit 2,000 and the first step runs.
    const { ws } = await meteredTurn(user, {
      budgets: { tokens: 2000 },
      enabledTools: { everything: ["echo"] },
    });
    const events = ws.events();
    ws.close();
    // One tool step (1,200 tokens): a second like it, and the wrap-up, would pass 2,000.
    expect(events.filter((e) => e.type === "step_started")).toHaveLength(1);
    expect(events.filter((e) => e.type === "usage_updated")).toHaveLength(2);
    const notice =
      "Stopped early to stay within this turn's token budget (1,200 of 2,000 tokens used so far).";
    expect(events.some((e) => e.type === "notice" && e.message === notice)).toBe(true);
    // The answer's line counts the wrap-up call too (1,800 tokens on this fixture).
    const note =
      "Stopped early to stay within this turn's token budget (3,000 of 2,000 tokens used, the final answer included).";
    const answer = fold(events).messages[1]!;
    expect(answer.status).toBe("complete");
    expect(answer.content.at(-1)).toEqual({ type: "text", text: `_${note}_` });
  }, 60_000);

  it("a viewer is told a budget stopped the answer, but not what it spent, on every path", async () => {
    const owner = await userWithTools();
    const [participant, viewer] = [await createUser(), await createUser()];
    const conv = await createConversation(owner, {
      settings: { budgets: { tokens: 2000 }, enabledTools: { everything: ["echo"] } },
    });
    await addMembers(owner, conv.id, [
      [participant, "participant"],
      [viewer, "viewer"],
    ]);
    const open = (who: TestUser) => TestSocket.openSynced(who, conv.id);
    const [theirs, watching] = [await open(participant), await open(viewer)];
    theirs.send({ type: "send", clientMessageId: crypto.randomUUID(), text: "metered question" });
    for (const ws of [theirs, watching]) await ws.until(turnEnded, 30_000);

    const stopped = "Stopped early to stay within this turn's token budget";
    const noticeOf = (events: ServerEvent[]) =>
      events.find(
        (e): e is Extract<ServerEvent, { type: "notice" }> =>
          e.type === "notice" && e.message.startsWith(stopped),
      )?.message;
    const lineOf = (events: Parameters<typeof fold>[0]) => fold(events).messages[1]?.content.at(-1);
    // A participant sees the figures (it is usage they may see)…
    expect(noticeOf(theirs.events())).toBe(`${stopped} (1,200 of 2,000 tokens used so far).`);
    // …a viewer, live, only that the budget stopped it.
    expect(noticeOf(watching.events())).toBe(`${stopped}.`);
    expect(lineOf(watching.events())).toEqual({ type: "text", text: `_${stopped}._` });
    for (const ws of [theirs, watching]) ws.close();

    // Replayed, over SSE, over REST and in an export: the same.
    const replayed = await open(viewer);
    expect(noticeOf(replayed.events())).toBe(`${stopped}.`);
    expect(lineOf(replayed.events())).toEqual({ type: "text", text: `_${stopped}._` });
    replayed.close();
    const streamed = await new SseReader(
      await api(viewer, `/api/conversations/${conv.id}/events`),
    ).done();
    expect(noticeOf(streamed)).toBe(`${stopped}.`);
    expect(lineOf(streamed)).toEqual({ type: "text", text: `_${stopped}._` });
    const page = (await (await api(viewer, `/api/conversations/${conv.id}/messages`)).json()) as {
      items: ChatMessage[];
    };
    expect(page.items[1]?.content.at(-1)).toEqual({ type: "text", text: `_${stopped}._` });
    const exported = await (await api(viewer, `/api/conversations/${conv.id}/export`)).text();
    expect(exported).toContain(stopped);
    expect(exported).not.toMatch(/tokens used/);
    // A read-only link, which anyone may open, neither.
    const link = (await (
      await api(owner, `/api/conversations/${conv.id}/links`, { method: "POST", json: {} })
    ).json()) as { token: string };
    const snapshot = (await (
      await api(null, `/api/shared/${encodeURIComponent(link.token)}`)
    ).json()) as { messages: ChatMessage[] };
    expect(snapshot.messages[1]?.content.at(-1)).toEqual({ type: "text", text: `_${stopped}._` });
    // Nor the limit the owner set, which with that line would tell what the answer cost.
    const seen = (await (await api(viewer, `/api/conversations/${conv.id}`)).json()) as {
      settings: Record<string, unknown>;
    };
    expect(seen.settings.budgets).toBeUndefined();
    // Nor do the lists that carry the conversation (its `settings` with it).
    type Listed = { id?: string; settings?: object; conversation?: Listed };
    for (const list of ["/api/shared-with-me", "/api/conversations?include=shared"]) {
      const { items } = (await (await api(viewer, list)).json()) as { items: Listed[] };
      const listed = items.map((i) => i.conversation ?? i).find((c) => c.id === conv.id);
      expect(listed?.settings).toBeDefined();
      expect(listed?.settings).not.toHaveProperty("budgets");
    }
    const mine = (await (await api(owner, `/api/conversations/${conv.id}`)).json()) as {
      settings: Record<string, unknown>;
    };
    expect(mine.settings.budgets).toEqual({ tokens: 2000 });
  }, 60_000);

  it("a token budget smaller than one model call fails the turn before the model is asked, saying what to change", async () => {
    const user = await userWithTools();
    // Every tool of the everything server is offered: a call is about 2,500 tokens.
    const { ws } = await meteredTurn(user, { budgets: { tokens: 1500 } });
    const events = ws.events();
    ws.close();
    expect(events.filter((e) => e.type === "usage_updated")).toHaveLength(0);
    const failed = events.find((e) => e.type === "turn_failed");
    expect(failed?.type === "turn_failed" && failed.error.code).toBe("budget_too_small");
    expect(failed?.type === "turn_failed" && failed.error.message).toMatch(
      /^This turn's token budget \(1,500 tokens\) is smaller than one model call with this conversation \(about [\d,]+ tokens of prompt, tools and history\)\. Raise the budget in the conversation's settings/,
    );
    expect(fold(events).messages[1]?.status).toBe("failed");
  }, 60_000);

  it("counts a model call cancelled mid-stream: its usage row, the turn's and the day's totals", async () => {
    const user = await createUser();
    const conv = await createConversation(user, { provider: "anthropic" });
    const ws = await TestSocket.open(user, conv.id);
    ws.send({ type: "resume", lastSeq: 0 });
    ws.send({ type: "send", clientMessageId: "c1", text: "a cancelled metered answer please" });
    await ws.until((f) => f.some((x) => x.type === "text_delta"));
    ws.send({ type: "cancel" });
    await ws.until(turnEnded);
    const events = ws.events();
    ws.close();
    expect(fold(events).messages[1]?.status).toBe("cancelled");
    // Anthropic's message_start had counted the input: the call is counted with it.
    const usage = events.filter((e) => e.type === "usage_updated");
    expect(usage).toHaveLength(1);
    expect(usage[0]).toMatchObject({ call: { calls: 1, inputTokens: 100 } });
    const today = await usedToday(user, 1);
    expect(today).toMatchObject({ calls: 1, inputTokens: 100, unpricedCalls: 0 });
    expect(today.outputTokens).toBeGreaterThanOrEqual(10);
    expect(today.costUsd).toBeGreaterThan(0);
    const res = await api(user, `/api/conversations/${conv.id}/usage`);
    const { total } = (await res.json()) as { total: UsageTotals };
    expect(total).toMatchObject({ calls: 1, inputTokens: 100 });
  }, 30_000);

  it("refuses a user's new messages past the daily allowance, on WebSocket and REST, and stores nothing twice", async () => {
    const user = await userWithTools();
    const { conv, ws, clientMessageId } = await meteredTurn(user);
    expect((await usedToday(user, 2)).inputTokens).toBe(2500);

    ws.send({ type: "send", clientMessageId: "over", text: "one more question" });
    await ws.until((frames) => frames.some((f) => f.type === "frame_error"), 10_000);
    const frame = ws.frames.find((f) => f.type === "frame_error");
    expect(frame).toMatchObject({
      error: {
        code: "daily_allowance_exceeded",
        message: expect.stringMatching(/today's allowance of 2,000 tokens \(3,000 used\)/),
      },
    });
    ws.close();

    const rest = await api(user, `/api/conversations/${conv.id}/chat`, {
      method: "POST",
      json: { clientMessageId: "over-rest", text: "and another" },
    });
    expect(rest.status).toBe(429);
    expect(Number(rest.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await errorOf(rest)).code).toBe("daily_allowance_exceeded");

    // A resend of the message already stored is no new message: it replays, it is not refused.
    const resend = await api(user, `/api/conversations/${conv.id}/chat`, {
      method: "POST",
      json: { clientMessageId, text: "metered question" },
    });
    expect(resend.status).toBe(200);
    await resend.text();
    const list = await api(user, `/api/conversations/${conv.id}/messages`);
    const { items } = (await list.json()) as { items: ChatMessage[] };
    expect(items.map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("answers 402 for a cost allowance and 429 for a token allowance, until the next UTC day", () => {
    const used = { ...EMPTY_USAGE, calls: 3, inputTokens: 900, outputTokens: 100, costUsd: 2.5 };
    const noon = Date.parse("2026-01-10T12:00:00Z");
    expect(allowanceRefusal({ tokens: 5000, costUsd: 2 }, used, noon)).toMatchObject({
      status: 402,
      retryAfterSeconds: 12 * 3600,
      error: { message: expect.stringContaining("allowance of $2.00 ($2.50 spent)") },
    });
    expect(allowanceRefusal({ tokens: 1000 }, used, noon)?.status).toBe(429);
    expect(allowanceRefusal({ tokens: 5000, costUsd: 3 }, used, noon)).toBeNull();
    // Unknown cost counts for nothing against a cost allowance: tokens still bound it.
    expect(allowanceRefusal({ costUsd: 1 }, { ...used, costUsd: null }, noon)).toBeNull();
  });
});
