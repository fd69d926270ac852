// A model call whose provider sends no usage report (here aimock's Anthropic stream, whose counts
// are all zeros without a fixture's usage) is still a call: it is a usage row of zero tokens marked
// unreported, the usage API says how many such calls its totals leave out, and nothing is guessed
// into the daily allowance.
import { expect, it } from "vitest";
import type { ConversationUsage, UserUsage } from "../protocol/usage";
import type { ServerEvent } from "../protocol/wire";
import { api, createConversation, createUser } from "../../tests/support/helpers";
import { TestSocket, turnEnded } from "../../tests/support/ws-client";

it("counts an answer's and a title's calls without a usage report, with zero tokens, marked unreported", async () => {
  const user = await createUser();
  const conv = await createConversation(user, { provider: "anthropic" });
  const ws = await TestSocket.openSynced(user, conv.id);
  ws.send({ type: "send", clientMessageId: crypto.randomUUID(), text: "an unmetered hello" });
  await ws.until(turnEnded, 30_000);
  await ws.until((f) => f.some((e) => e.type === "usage_recorded"), 10_000);
  ws.close();
  const events = ws.events() as ServerEvent[];

  const updates = events.flatMap((e) => (e.type === "usage_updated" ? [e] : []));
  expect(updates).toHaveLength(1);
  expect(updates[0]).toMatchObject({
    unreported: true,
    call: { calls: 1, inputTokens: 0, outputTokens: 0, unreportedCalls: 1 },
  });
  const title = events.find((e) => e.type === "usage_recorded");
  expect(title).toMatchObject({ purpose: "title", call: { calls: 1, unreportedCalls: 1 } });

  const usage = (await (
    await api(user, `/api/conversations/${conv.id}/usage`)
  ).json()) as ConversationUsage;
  expect(usage.total).toMatchObject({
    calls: 2,
    inputTokens: 0,
    outputTokens: 0,
    estimatedCalls: 0,
    unreportedCalls: 2,
  });
  expect(usage.messages).toEqual([expect.objectContaining({ calls: 1, unreportedCalls: 1 })]);
  expect(usage.housekeeping).toMatchObject({ calls: 1, unreportedCalls: 1 });

  // The owner's day: two calls, no tokens charged to the daily allowance.
  const today = new Date().toISOString().slice(0, 10);
  const day = (await (await api(user, `/api/usage?from=${today}&to=${today}`)).json()) as UserUsage;
  expect(day.total).toMatchObject({
    calls: 2,
    inputTokens: 0,
    outputTokens: 0,
    unreportedCalls: 2,
  });
}, 60_000);
