// The title call after a first answer costs the owner at the provider like the answer does: it is
// in the conversation's usage and the owner's day, under the cheap model that made it.
import { expect, it } from "vitest";
import type { ConversationUsage, UserUsage } from "../protocol/usage";
import type { ServerEvent } from "../protocol/wire";
import { addMembers, api, createConversation, createUser } from "../../tests/support/helpers";
import { SseReader } from "../../tests/support/sse-client";
import { TestSocket, turnEnded } from "../../tests/support/ws-client";

const recorded = (events: ServerEvent[]) =>
  events.flatMap((e) => (e.type === "usage_recorded" ? [e] : []));

it("counts the title call in the conversation's usage and the owner's day, apart from the answer", async () => {
  const user = await createUser();
  const conv = await createConversation(user, {
    provider: "anthropic",
    model: "claude-sonnet-4-20250514",
  });
  const ws = await TestSocket.open(user, conv.id);
  ws.send({ type: "resume", lastSeq: 0 });
  ws.send({
    type: "send",
    clientMessageId: crypto.randomUUID(),
    text: "housekeeping metered question",
  });
  await ws.until(turnEnded, 30_000);
  await ws.until((frames) => frames.some((f) => f.type === "title_changed"), 10_000);
  ws.close();

  let usage: ConversationUsage | undefined;
  for (let i = 0; i < 100 && (usage?.total.calls ?? 0) < 2; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 50));
    const res = await api(user, `/api/conversations/${conv.id}/usage`);
    expect(res.status).toBe(200);
    usage = (await res.json()) as ConversationUsage;
  }
  // The answer (400 in, 50 out) and the title (120 in, 8 out).
  expect(usage?.total).toMatchObject({ calls: 2, inputTokens: 520, outputTokens: 58 });
  // Per answer, only the answer's own call: the title belongs to no answer.
  expect(usage?.messages.map((m) => [m.calls, m.inputTokens])).toEqual([[1, 400]]);

  const today = new Date().toISOString().slice(0, 10);
  const day = await api(user, `/api/usage?from=${today}&to=${today}`);
  const mine = (await day.json()) as UserUsage;
  expect(mine.total).toMatchObject({ calls: 2, inputTokens: 520, outputTokens: 58 });
  // The title was written by the provider's cheap model, not the conversation's.
  const models = mine.days.map((d) => d.model);
  expect(models).toHaveLength(2);
  expect(models).toContain("claude-sonnet-4-20250514");
}, 60_000);

it("tells every open tab and SSE client of the title call once the usage API has it, and no viewer", async () => {
  const owner = await createUser();
  const viewer = await createUser();
  const conv = await createConversation(owner, {
    provider: "anthropic",
    model: "claude-sonnet-4-20250514",
  });
  await addMembers(owner, conv.id, [[viewer, "viewer"]]);
  const [tab, otherTab, watching] = [
    await TestSocket.openSynced(owner, conv.id),
    await TestSocket.openSynced(owner, conv.id),
    await TestSocket.openSynced(viewer, conv.id),
  ];
  tab.send({
    type: "send",
    clientMessageId: crypto.randomUUID(),
    text: "housekeeping metered question, told live",
  });
  for (const ws of [tab, otherTab])
    await ws.until((frames) => recorded(frames as ServerEvent[]).length > 0, 30_000);
  const [event] = recorded(tab.events());
  expect(event).toMatchObject({
    purpose: "title",
    provider: "anthropic",
    call: { calls: 1, inputTokens: 120, outputTokens: 8 },
  });
  expect(event?.call.costUsd).toBeGreaterThan(0);
  expect(recorded(otherTab.events())).toEqual([event]);

  // Told once D1 has the row: the page's meter reads it at once, no reload, no waiting.
  const res = await api(owner, `/api/conversations/${conv.id}/usage`);
  const usage = (await res.json()) as ConversationUsage;
  expect(usage.housekeeping).toMatchObject({ calls: 1, inputTokens: 120, outputTokens: 8 });
  expect(usage.total).toMatchObject({ calls: 2, inputTokens: 520, outputTokens: 58 });

  // The viewer saw the answer and the title, not what they cost; live or replayed.
  await watching.until((frames) => frames.some((f) => f.type === "title_changed"), 10_000);
  expect(recorded(watching.events())).toEqual([]);
  for (const ws of [tab, otherTab, watching]) ws.close();
  const replayed = await TestSocket.openSynced(viewer, conv.id);
  expect(recorded(replayed.events())).toEqual([]);
  replayed.close();

  // Server-Sent Events: the owner's stream carries the same event, a viewer's none.
  const streamOf = async (who: typeof owner) =>
    new SseReader(await api(who, `/api/conversations/${conv.id}/events`)).done();
  expect(recorded(await streamOf(owner))).toEqual([event]);
  expect(recorded(await streamOf(viewer))).toEqual([]);
}, 60_000);
