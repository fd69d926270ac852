import { abortAllDurableObjects, env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { api, createConversation, createUser, type TestUser } from "../../tests/support/helpers";
import { LONG_REPLY } from "../../tests/support/global-setup";
import { fold, TestSocket, turnEnded } from "../../tests/support/ws-client";
import { messageText, type ChatMessage } from "../protocol/messages";
import type { ServerEvent } from "../protocol/wire";
import type { Conversation } from "./conversation";

const textOf = (events: ServerEvent[], messageIndex = 1) =>
  messageText(fold(events).messages[messageIndex]?.content ?? []);

/** Every state a client folding these events passes through, as the answer's text. */
function textsSeen(events: ServerEvent[]): string[] {
  const seen: string[] = [];
  for (let i = 1; i <= events.length; i++) seen.push(textOf(events.slice(0, i)));
  return seen;
}

/** Opens a socket that catches up after `lastSeq`, waits for `until`, and returns the new events. */
async function reconnect(
  user: TestUser,
  conversationId: string,
  lastSeq: number,
  until: (events: ServerEvent[]) => boolean,
): Promise<ServerEvent[]> {
  const ws = await TestSocket.open(user, conversationId);
  ws.send({ type: "resume", lastSeq });
  await ws.until(() => until(ws.events()), 30_000);
  ws.close();
  return ws.events();
}

const deltasAfterLastNotice = (events: ServerEvent[]) => {
  const notice = events.findLastIndex((e) => e.type === "notice");
  return events.slice(notice + 1).filter((e) => e.type === "text_delta").length;
};

async function storedAnswer(user: TestUser, conversationId: string): Promise<ChatMessage> {
  for (let i = 0; ; i++) {
    const res = await api(user, `/api/conversations/${conversationId}/messages`);
    const { items } = (await res.json()) as { items: ChatMessage[] };
    const answer = items.find((m) => m.role === "assistant");
    if (answer || i > 60) return answer!;
    await new Promise((r) => setTimeout(r, 50));
  }
}

it("a resumed step replaces the text it had streamed before the restart: no client ever shows it twice", async () => {
  const user = await createUser();
  const conv = await createConversation(user);
  const first = await TestSocket.open(user, conv.id);
  first.send({ type: "resume", lastSeq: 0 });
  first.send({ type: "send", clientMessageId: "restart-once", text: "long answer please" });
  await first.until((f) => f.filter((x) => x.type === "text_delta").length >= 5, 20_000);
  const before = first.events();
  await abortAllDurableObjects();

  const after = await reconnect(user, conv.id, before.at(-1)!.seq, (e) => turnEnded(e));
  const all = [...before, ...after];
  expect(all.map((e) => e.seq)).toEqual(all.map((_, i) => i + 1));
  // While the answer streams, what a client shows is always the start of the real answer.
  const live = all.slice(
    0,
    all.findIndex((e) => e.type === "message_completed"),
  );
  for (const text of textsSeen(live)) expect(LONG_REPLY.startsWith(text)).toBe(true);
  expect(textOf(live)).toBe(LONG_REPLY);
  expect(all.find((e) => e.type === "step_restarted")).toMatchObject({ step: 1, content: [] });
  expect(fold(all).messages[1]).toMatchObject({ status: "complete" });
  expect(textOf(all)).toBe(LONG_REPLY);
}, 60_000);

it("a turn cut off by three restarts ends interrupted with the text the user saw, once", async () => {
  const user = await createUser();
  const conv = await createConversation(user);
  const first = await TestSocket.open(user, conv.id);
  first.send({ type: "resume", lastSeq: 0 });
  first.send({ type: "send", clientMessageId: "restart-thrice", text: "long answer please" });
  await first.until((f) => f.filter((x) => x.type === "text_delta").length >= 5, 20_000);
  const all = first.events();
  await abortAllDurableObjects();
  for (let restart = 2; restart <= 3; restart++) {
    // Each resumed run streams a little before the next restart cuts it off.
    all.push(
      ...(await reconnect(user, conv.id, all.at(-1)!.seq, (e) => deltasAfterLastNotice(e) >= 5)),
    );
    await abortAllDurableObjects();
  }
  all.push(...(await reconnect(user, conv.id, all.at(-1)!.seq, (e) => turnEnded(e))));

  expect(all.map((e) => e.seq)).toEqual(all.map((_, i) => i + 1));
  const completed = all.findIndex((e) => e.type === "message_completed");
  const shownLast = textOf(all.slice(0, completed));
  expect(shownLast.length).toBeGreaterThan(0);
  expect(LONG_REPLY.startsWith(shownLast)).toBe(true);
  const answer = fold(all).messages[1]!;
  expect(answer.status).toBe("interrupted");
  expect(messageText(answer.content)).toBe(shownLast);
  const stored = await storedAnswer(user, conv.id);
  expect(stored.status).toBe("interrupted");
  expect(messageText(stored.content)).toBe(shownLast);
  // The user is told why the answer stopped.
  expect(all.some((e) => e.type === "notice" && /restarted \d+ times/.test(e.message))).toBe(true);
}, 90_000);

it("a process killed after the message was acknowledged but before its turn started runs the turn after the restart", async () => {
  const user = await createUser();
  const conv = await createConversation(user);
  const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(conv.id));
  // What such a process leaves behind: the message stored and acknowledged, its turn holding the
  // turn lock, and no turn_started in the log. (The turn is taken before the first await.)
  await runInDurableObject(stub, (instance: Conversation) => {
    const store = instance.store;
    const seq = store.nextMessageSeq();
    const message: ChatMessage = {
      id: crypto.randomUUID(),
      role: "user",
      content: [{ type: "text", text: "hello there" }],
      status: "complete",
      seq,
      clientMessageId: "killed-before-start",
      createdAt: Date.now(),
    };
    store.putMessage(message);
    const opened = store.appendEvent({ type: "user_message", message });
    store.addTurn({
      id: crypto.randomUUID(),
      userMessageId: message.id,
      assistantMessageId: crypto.randomUUID(),
      assistantSeq: seq + 1,
      startSeq: opened.seq,
      options: {},
      createdAt: message.createdAt,
    });
    expect(store.startNextTurn()).not.toBeNull();
  });
  await abortAllDurableObjects();

  const events = await reconnect(user, conv.id, 0, (e) => turnEnded(e));
  const started = events.filter((e) => e.type === "turn_started");
  expect(started).toHaveLength(1);
  expect(started[0]).toMatchObject({ provider: "anthropic", model: conv.model });
  const answer = fold(events).messages[1]!;
  expect(answer.status).toBe("complete");
  expect(messageText(answer.content)).toBe("Hello! I am a mock model.");
  // The restart counter of the finished turn is not kept.
  const fresh = env.CONVERSATION.get(env.CONVERSATION.idFromName(conv.id));
  const counters = await runInDurableObject(fresh, (_instance: Conversation, state) =>
    state.storage.sql
      .exec<{ key: string }>(
        "SELECT key FROM conv_meta WHERE key LIKE 'starts:%' OR key LIKE 'resumes:%'",
      )
      .toArray(),
  );
  expect(counters).toEqual([]);
}, 60_000);
