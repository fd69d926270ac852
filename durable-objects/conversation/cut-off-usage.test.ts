// A model call a restart cuts off was paid for at the provider: the turn's recovery counts it
// once, estimated from what it had streamed, and the usage API says the figure is an estimate.
import { abortAllDurableObjects } from "cloudflare:test";
import { expect, it } from "vitest";
import type { ConversationUsage, UserUsage } from "../protocol/usage";
import type { ServerEvent } from "../protocol/wire";
import { api, createConversation, createUser, type TestUser } from "../../tests/support/helpers";
import { fold, TestSocket, turnEnded } from "../../tests/support/ws-client";

const updates = (events: ServerEvent[]) =>
  events.flatMap((e) => (e.type === "usage_updated" ? [e] : []));

async function usageOf(user: TestUser, id: string, calls: number): Promise<ConversationUsage> {
  for (let i = 0; ; i++) {
    const body = (await (
      await api(user, `/api/conversations/${id}/usage`)
    ).json()) as ConversationUsage;
    // The object's outbox reaches D1 shortly after the turn.
    if (body.total.calls >= calls || i > 100) return body;
    await new Promise((r) => setTimeout(r, 50));
  }
}

it("counts the model call a restart cut off, once, estimated, and the usage API says so", async () => {
  const user = await createUser();
  const conv = await createConversation(user);
  const first = await TestSocket.open(user, conv.id);
  first.send({ type: "resume", lastSeq: 0 });
  first.send({ type: "send", clientMessageId: "cut-off-call", text: "long answer please" });
  await first.until((f) => f.filter((x) => x.type === "text_delta").length >= 5, 20_000);
  const before = first.events();
  expect(updates(before)).toEqual([]); // the call had reported nothing yet
  await abortAllDurableObjects();

  const ws = await TestSocket.open(user, conv.id);
  ws.send({ type: "resume", lastSeq: before.at(-1)!.seq });
  await ws.until((events) => turnEnded(events), 30_000);
  ws.close();
  const all = [...before, ...ws.events()];
  const answer = fold(all).messages[1]!;
  expect(answer.status).toBe("complete");

  const cutOff = updates(all).filter((e) => e.estimated);
  expect(cutOff).toHaveLength(1);
  expect(cutOff[0]).toMatchObject({ step: 1, call: { calls: 1, estimatedCalls: 1 } });
  // Input as the request counts; output from the deltas streamed before the restart.
  const streamed = before.flatMap((e) => (e.type === "text_delta" ? [e.delta] : [])).join("");
  expect(cutOff[0]!.call.inputTokens).toBeGreaterThan(0);
  expect(cutOff[0]!.call.outputTokens).toBe(Math.ceil(streamed.length / 4));

  const calls = updates(all).length;
  // The turn started again (it had no checkpoint) counts on from the cut call, budgets too.
  expect(updates(all).at(-1)!.turn).toMatchObject({ calls, estimatedCalls: 1 });
  const usage = await usageOf(user, conv.id, calls);
  expect(usage.total).toMatchObject({ calls, estimatedCalls: 1 });
  expect(usage.messages).toEqual([{ messageId: answer.id, ...usage.total }]);
}, 60_000);

it("counts a cut-off call that had fallen back as the fallback model's, at its price", async () => {
  const user = await createUser();
  // Nothing listens at OLLAMA_BASE_URL: the step falls back to Anthropic (aimock).
  const conv = await createConversation(user, {
    provider: "ollama",
    model: "llama3.2:latest",
    settings: { route: [{ provider: "anthropic", model: "claude-haiku-4-5" }] },
  });
  const first = await TestSocket.openSynced(user, conv.id);
  first.send({ type: "send", clientMessageId: "cut-off-fallback", text: "long answer please" });
  await first.until((f) => f.filter((x) => x.type === "text_delta").length >= 5, 20_000);
  const before = first.events();
  expect(before.find((e) => e.type === "step_model")).toMatchObject({ model: "claude-haiku-4-5" });
  await abortAllDurableObjects();

  const ws = await TestSocket.open(user, conv.id);
  ws.send({ type: "resume", lastSeq: before.at(-1)!.seq });
  await ws.until((events) => turnEnded(events), 30_000);
  ws.close();
  const cutOff = updates([...before, ...ws.events()]).filter((e) => e.estimated);
  expect(cutOff).toHaveLength(1);
  // Priced as Haiku (llama3.2 has no price: its cost would be unknown).
  expect(cutOff[0]).toMatchObject({ model: "claude-haiku-4-5", call: { estimatedCalls: 1 } });
  expect(cutOff[0]!.call.costUsd).toBeGreaterThan(0);

  const today = new Date().toISOString().slice(0, 10);
  let days: UserUsage["days"] = [];
  for (let i = 0; i < 100 && !days.some((d) => d.estimatedCalls); i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 50));
    days = ((await (await api(user, `/api/usage?from=${today}&to=${today}`)).json()) as UserUsage)
      .days;
  }
  const estimated = days.filter((d) => d.estimatedCalls);
  expect(estimated).toEqual([
    expect.objectContaining({
      provider: "anthropic",
      model: "claude-haiku-4-5",
      estimatedCalls: 1,
    }),
  ]);
}, 60_000);

it("keeps every cut-off call in the turn's running total when restarts cut it twice before a checkpoint", async () => {
  const user = await createUser();
  const conv = await createConversation(user);
  const deltas = (events: ServerEvent[]) => events.filter((x) => x.type === "text_delta").length;
  let ws = await TestSocket.openSynced(user, conv.id);
  ws.send({ type: "send", clientMessageId: "cut-off-twice", text: "long answer please" });
  const all: ServerEvent[] = [];
  for (let restart = 0; restart < 2; restart++) {
    await ws.until((f) => deltas(f as ServerEvent[]) >= 5, 20_000);
    all.push(...ws.events());
    await abortAllDurableObjects();
    ws = await TestSocket.open(user, conv.id);
    ws.send({ type: "resume", lastSeq: all.at(-1)!.seq });
  }
  await ws.until((events) => turnEnded(events), 30_000);
  ws.close();
  all.push(...ws.events());
  expect(fold(all).messages[1]!.status).toBe("complete");

  const cutOff = updates(all).filter((e) => e.estimated);
  expect(cutOff.map((e) => e.turn.calls)).toEqual([1, 2]);
  expect(cutOff[1]!.turn.inputTokens).toBe(
    cutOff[0]!.call.inputTokens + cutOff[1]!.call.inputTokens,
  );
  // The answer's last call: three calls so far, two of them estimated.
  expect(updates(all).at(-1)!.turn).toMatchObject({ calls: 3, estimatedCalls: 2 });
}, 90_000);
