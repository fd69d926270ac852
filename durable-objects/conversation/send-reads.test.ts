import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import type { Env } from "../../shared/env";
import { api, createConversation, createUser } from "../../tests/support/helpers";
import { type D1Trip, recordingD1 } from "../../tests/support/recording-d1";
import { TestSocket, turnEnded } from "../../tests/support/ws-client";
import type { Conversation } from "./conversation";

const isWrite = (trip: D1Trip) => trip.sql.some((s) => /^\s*(insert|update|delete)\b/i.test(s));
const readsConversationRow = (trip: D1Trip) =>
  trip.sql.some((s) => /FROM conversations WHERE id = \?/i.test(s));

it("a new message's checks and its turn's D1 reads go out together, before the message is written to D1, and the row is read once per turn", async () => {
  const user = await createUser();
  const conv = await createConversation(user);
  const ws = await TestSocket.open(user, conv.id);
  ws.send({ type: "resume", lastSeq: 0 });
  await ws.until((f) => f.some((x) => x.type === "synced"));
  const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(conv.id));
  // Every D1 round trip made from here on is noted, in order (the object's env is the test's).
  const own = await runInDurableObject(
    stub,
    (i: Conversation) => (i as unknown as { env: Env }).env,
  );
  const original = own.DB;
  const { db, trips } = recordingD1(original);
  own.DB = db;

  ws.send({ type: "send", clientMessageId: "m1", text: "hello there" });
  await ws.until(turnEnded);
  // The message reaches D1 (the outbox), and the first answer names the conversation.
  await expectEventually(async () => {
    const res = await api(user, `/api/conversations/${conv.id}/messages`);
    const body = (await res.json()) as { items: Array<{ role: string }> };
    expect(body.items.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(trips.some((t) => t.sql.some((s) => /UPDATE conversations SET title/.test(s)))).toBe(
      true,
    );
  });

  const firstWrite = trips.findIndex(isWrite);
  expect(firstWrite).toBeGreaterThan(0);
  const reads = trips.slice(0, firstWrite);
  // The access check, the allowance, the sender's name and the turn's context: none of them
  // waits for another's answer (one round trip's wait, not one after another).
  const firstAnswer = Math.min(...reads.map((t) => t.answered ?? Infinity));
  expect(reads.map((t) => t.started < firstAnswer)).toEqual(reads.map(() => true));
  // The turn's context came before the write of the message, not behind it.
  expect(reads.filter(readsConversationRow)).toHaveLength(1);
  // The title and the summary use the row the turn read.
  expect(trips.filter(readsConversationRow)).toHaveLength(1);
  own.DB = original;
  ws.close();
});

async function expectEventually(check: () => Promise<void>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
