import { env, runInDurableObject } from "cloudflare:test";
import { afterEach, expect, inject, it } from "vitest";
import type { Env } from "../../shared/env";
import { api, createConversation, createUser, type TestUser } from "../../tests/support/helpers";
import { type D1Trip, keysOf, recordingD1 } from "../../tests/support/recording-d1";
import { TestSocket, turnEnded } from "../../tests/support/ws-client";
import { type Conversation, FIRST_WRITE_AFTER_MS } from "./conversation";

const isWrite = (trip: D1Trip) => trip.sql.some((s) => /^\s*(insert|update|delete)\b/i.test(s));
/** What a new message needs from D1 before its turn calls the model. */
const SEND_READS = [
  /FROM api_tokens/, // the socket's credential
  /THEN 'owner' ELSE m\.role/, // the sender's role
  /FROM usage/, // the daily allowance
  /SELECT name FROM users/, // the author's name
  /FROM conversations WHERE id = \?/, // the turn's context
];
const isTitleWrite = (trip: D1Trip) =>
  trip.sql.some((s) => /UPDATE conversations SET title/.test(s));
const readsConversationRow = (trip: D1Trip) =>
  trip.sql.some((s) => /FROM conversations WHERE id = \?/i.test(s));

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

/** The conversation's object. */
const objectOf = (conversationId: string) =>
  env.CONVERSATION.get(env.CONVERSATION.idFromName(conversationId));

/**
 * Notes, in order, every D1 round trip the conversation's object makes from now on for this
 * conversation or its user. Objects share their env: without the filter, an earlier test's
 * conversation, still writing its title or usage, would be counted here too.
 */
async function recordObjectD1(user: TestUser, conversationId: string) {
  const own = await runInDurableObject(
    objectOf(conversationId),
    (i: Conversation) => (i as unknown as { env: Env }).env,
  );
  const original = own.DB;
  const recording = recordingD1(original, await keysOf(original, user, conversationId));
  own.DB = recording.db;
  restore = () => (own.DB = original);
  return recording;
}

/**
 * Leaves the conversation's first D1 write to its turn's end only: without the timer, a machine
 * loaded enough to run a short turn for over FIRST_WRITE_AFTER_MS cannot split a count of writes
 * in two.
 */
async function withoutFirstWriteTimer(conversationId: string): Promise<void> {
  await runInDurableObject(objectOf(conversationId), (i: Conversation) => {
    i.firstWriteAfterMs = 60_000;
  });
}

/** A socket on the conversation, caught up from the start. */
async function syncedSocket(user: TestUser, conversationId: string): Promise<TestSocket> {
  const ws = await TestSocket.openSynced(user, conversationId);
  return ws;
}

/** The roles of the conversation's messages in D1 (GET /messages reads them there). */
async function storedRoles(user: TestUser, conversationId: string): Promise<string[]> {
  const res = await api(user, `/api/conversations/${conversationId}/messages`);
  const body = (await res.json()) as { items: Array<{ role: string }> };
  return body.items.map((m) => m.role);
}

const messageInserts = (trip: D1Trip) =>
  trip.sql.filter((s) => /insert into "messages"/i.test(s)).length;

it("a new message's checks and its turn's D1 reads go out together, mostly in one batch, before the message is written to D1, and the row is read once per turn", async () => {
  const user = await createUser();
  const conv = await createConversation(user);
  // Every D1 round trip made from here on is noted, in order.
  const recording = await recordObjectD1(user, conv.id);
  const ws = await syncedSocket(user, conv.id);
  const from = recording.trips.length;

  ws.send({ type: "send", clientMessageId: "m1", text: "hello there" });
  await ws.until(turnEnded);
  // The message reaches D1 (the outbox), and the first answer names the conversation.
  await expectEventually(async () => {
    expect(await storedRoles(user, conv.id)).toEqual(["user", "assistant"]);
    const titled = recording.trips.slice(from).filter((t) => isTitleWrite(t) && t.answered);
    expect(titled).toHaveLength(1);
  });
  const trips = recording.trips.slice(from);

  const firstWrite = trips.findIndex(isWrite);
  expect(firstWrite).toBeGreaterThan(0);
  const reads = trips.slice(0, firstWrite);
  // The socket's credential, the access check, the allowance, the sender's name and the turn's
  // context: none of them waits for another's answer (one round trip's wait, not five).
  const needed = SEND_READS.map((read) => reads.find((t) => t.sql.some((s) => read.test(s))));
  expect(needed.map((t) => t !== undefined)).toEqual(SEND_READS.map(() => true));
  const firstAnswer = Math.min(...needed.map((t) => t?.answered ?? Infinity));
  expect(needed.map((t) => t!.started < firstAnswer)).toEqual(SEND_READS.map(() => true));
  // D1 answers one query at a time: all but the allowance (another table's sums) are one batch.
  const [credential, role, , name, context] = needed;
  expect(new Set([credential, role, name, context]).size).toBe(1);
  // The turn's context came before the write of the message, not behind it.
  expect(reads.filter(readsConversationRow)).toHaveLength(1);
  // The title and the summary use the row the turn read.
  expect(trips.filter(readsConversationRow)).toHaveLength(1);
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

it("a plain answer's turn writes to D1 once, as it ends: the user's message goes with the answer, not beside the model request", async () => {
  const user = await createUser();
  const conv = await createConversation(user);
  const recording = await recordObjectD1(user, conv.id);
  await withoutFirstWriteTimer(conv.id);
  const ws = await syncedSocket(user, conv.id);
  const from = recording.trips.length;
  // Another user's turn at the same time, through the same D1 binding: its writes are not ours.
  const other = await createUser();
  const otherConv = await createConversation(other);
  const otherWs = await syncedSocket(other, otherConv.id);

  otherWs.send({ type: "send", clientMessageId: "o1", text: "hello there" });
  ws.send({ type: "send", clientMessageId: "w1", text: "hello there" });
  await ws.until(turnEnded);
  await otherWs.until(turnEnded);
  await expectEventually(async () => {
    expect(await storedRoles(user, conv.id)).toEqual(["user", "assistant"]);
    expect(await storedRoles(other, otherConv.id)).toEqual(["user", "assistant"]);
  });
  otherWs.close();
  const messageWrites = recording.trips.slice(from).filter((t) => messageInserts(t) > 0);
  expect(messageWrites.map(messageInserts)).toEqual([2]);
  ws.close();
});

it("a long first step does not keep the user's message from D1: it is written while the answer still streams", async () => {
  const user = await createUser();
  const conv = await createConversation(user);
  const ws = await syncedSocket(user, conv.id);

  // About 3.6 s of streaming (global-setup.ts): well past FIRST_WRITE_AFTER_MS.
  ws.send({ type: "send", clientMessageId: "s1", text: "a slow answer please" });
  await expectEventually(async () => {
    expect(await storedRoles(user, conv.id)).toEqual(["user"]);
  }, FIRST_WRITE_AFTER_MS + 1_500);
  expect(turnEnded(ws.frames)).toBe(false);
  await ws.until(turnEnded, 10_000);
  ws.close();
});

it("a turn that calls tools writes to D1 once, as it ends: not beside the model request of a step after its tools", async () => {
  const user = await createUser();
  const added = await api(user, "/api/mcp-servers", {
    method: "POST",
    json: { name: "library", url: inject("lookupUrl") },
  });
  expect(added.status).toBe(201);
  const conv = await createConversation(user);
  const recording = await recordObjectD1(user, conv.id);
  await withoutFirstWriteTimer(conv.id);
  const ws = await syncedSocket(user, conv.id);
  const from = recording.trips.length;

  // Two lookups (branch-fixtures.ts), then the answer: three model steps.
  ws.send({
    type: "send",
    clientMessageId: "t1",
    text: `branch three steps ${crypto.randomUUID()}`,
  });
  await ws.until(turnEnded, 30_000);
  await expectEventually(async () => {
    expect(await storedRoles(user, conv.id)).toEqual(["user", "assistant"]);
  });
  // This turn's rows go in one trip as it ends: the question, the answer and its three model
  // calls' usage.
  const turnWrites = recording.trips.slice(from).filter((t) => messageInserts(t) > 0);
  expect(turnWrites.map(messageInserts)).toEqual([2]);
  expect(turnWrites[0]!.sql.filter((s) => /insert into "usage"/i.test(s))).toHaveLength(3);
  ws.close();
});

it("the reply a message starts does not read the sender's credential again: the send's own check stands", async () => {
  const user = await createUser();
  const conv = await createConversation(user);
  const recording = await recordObjectD1(user, conv.id);
  const ws = await syncedSocket(user, conv.id);
  const from = recording.trips.length;

  ws.send({ type: "send", clientMessageId: "c1", text: "hello there" });
  await ws.until(turnEnded);
  const credentialReads = recording.trips
    .slice(from)
    .filter((t) => t.sql.some((s) => /FROM api_tokens/.test(s)));
  // One: in the send's batch. The events of the reply went out without another.
  expect(credentialReads).toHaveLength(1);
  expect(credentialReads[0]!.sql.length).toBeGreaterThan(1);
  ws.close();
});

it("a socket opened with a token has its user named from the handshake: presence needs no D1 read of the name", async () => {
  const name = `Zoë ${crypto.randomUUID().slice(0, 4)} & co`;
  const user = await createUser(name);
  const conv = await createConversation(user);
  const recording = await recordObjectD1(user, conv.id);
  const ws = await TestSocket.open(user, conv.id);
  ws.send({ type: "resume", lastSeq: 0, presence: true });
  await ws.until((f) => f.some((x) => x.type === "presence"));
  const presence = ws.frames.find((f) => f.type === "presence");
  expect(presence).toMatchObject({ people: [{ userId: user.id, name, role: "owner" }] });
  expect(recording.trips.filter((t) => t.sql.some((s) => /FROM users/.test(s)))).toEqual([]);
  ws.close();
});

it("a name a client puts in its handshake's headers is never taken: a ticket's socket is named from D1", async () => {
  const user = await createUser(`Real ${crypto.randomUUID().slice(0, 4)}`);
  const conv = await createConversation(user);
  const res = await api(user, `/api/conversations/${conv.id}/ws-ticket`, { method: "POST" });
  const { ticket } = (await res.json()) as { ticket: string };
  const ws = await TestSocket.openWith(
    conv.id,
    { "x-thinking-chat-name": "Mallory" },
    `?ticket=${encodeURIComponent(ticket)}`,
  );
  ws.send({ type: "resume", lastSeq: 0, presence: true });
  await ws.until((f) => f.some((x) => x.type === "presence" && x.people[0]?.name !== ""));
  const presence = ws.frames.filter((f) => f.type === "presence").at(-1);
  expect(presence).toMatchObject({
    people: [{ userId: user.id, name: expect.stringMatching(/^Real /) }],
  });
  ws.close();
});
