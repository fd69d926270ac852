// An OpenAI client that resends a request with the same Idempotency-Key (after a dropped
// connection, say) gets the first request's answer, never a second turn to pay for: replayed when
// the turn has ended, followed while it runs; another request under that key gets 409.
import OpenAI from "openai";
import { expect, it } from "vitest";
import { api, createUser, type TestUser } from "../../../../tests/support/helpers";
import { openAiClient } from "../../../../tests/support/openai-client";
import type { ChatMessage } from "../../../../durable-objects/protocol/messages";

const SLOW = "This answer takes a while to arrive."; // global-setup.ts: 4 characters every 400 ms

/** The conversation's stored messages once its answer has reached D1. */
async function storedMessages(user: TestUser, conversationId: string): Promise<ChatMessage[]> {
  for (let i = 0; ; i++) {
    const res = await api(user, `/api/conversations/${conversationId}/messages`);
    const { items } = (await res.json()) as { items: ChatMessage[] };
    if (items.some((m) => m.role === "assistant" && m.status !== "interrupted") || i > 100)
      return items;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function conversationsOf(user: TestUser): Promise<string[]> {
  const res = await api(user, "/api/conversations");
  return ((await res.json()) as { items: { id: string }[] }).items.map((c) => c.id);
}

it("a resent chat completion gets the first answer, from the same single turn", async () => {
  const user = await createUser();
  const client = openAiClient(user);
  const ask = () =>
    client.chat.completions
      .create(
        { model: "thinking-chat", messages: [{ role: "user", content: "Hello there" }] },
        { headers: { "Idempotency-Key": "hello-1" } },
      )
      .withResponse();
  const first = await ask();
  const again = await ask();
  expect(again.data).toEqual(first.data);
  const conversationId = first.response.headers.get("x-conversation-id")!;
  expect(again.response.headers.get("x-conversation-id")).toBe(conversationId);
  // One conversation, one question, one answer.
  expect(await conversationsOf(user)).toEqual([conversationId]);
  const messages = await storedMessages(user, conversationId);
  expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
}, 60_000);

it("a stream resent after its connection dropped follows the same turn to its end", async () => {
  const user = await createUser();
  const client = openAiClient(user);
  const ask = () =>
    client.chat.completions
      .create(
        {
          model: "thinking-chat",
          stream: true,
          messages: [{ role: "user", content: "A slow answer, please." }],
        },
        { headers: { "Idempotency-Key": "slow-1" } },
      )
      .withResponse();
  const dropped = await ask();
  for await (const chunk of dropped.data) if (chunk.choices[0]?.delta.content) break; // drops it
  const conversationId = dropped.response.headers.get("x-conversation-id")!;

  const resent = await ask();
  expect(resent.response.headers.get("x-conversation-id")).toBe(conversationId);
  let text = "";
  const finishes: (string | null)[] = [];
  for await (const chunk of resent.data) {
    text += chunk.choices[0]?.delta.content ?? "";
    finishes.push(chunk.choices[0]?.finish_reason ?? null);
  }
  // The whole answer, from its start, once.
  expect(text).toBe(SLOW);
  expect(finishes.at(-1)).toBe("stop");
  const messages = await storedMessages(user, conversationId);
  expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  expect(await conversationsOf(user)).toEqual([conversationId]);
}, 60_000);

it("two sends of one request at the same moment make one conversation and one turn", async () => {
  const user = await createUser();
  const client = openAiClient(user);
  const ask = () =>
    client.responses
      .create(
        { model: "thinking-chat", input: "Hello at once" },
        { headers: { "Idempotency-Key": "together" } },
      )
      .withResponse();
  const [a, b] = await Promise.all([ask(), ask()]);
  expect(b.data.id).toBe(a.data.id);
  expect(b.data.output_text).toBe(a.data.output_text);
  const conversationId = a.response.headers.get("x-conversation-id")!;
  expect(await conversationsOf(user)).toEqual([conversationId]);
  const messages = await storedMessages(user, conversationId);
  expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
}, 60_000);

it("refuses another request under a used key with a 409 the SDK does not retry", async () => {
  const user = await createUser();
  const client = openAiClient(user);
  const headers = { "Idempotency-Key": "used-once" };
  const first = await client.chat.completions.create(
    { model: "thinking-chat", messages: [{ role: "user", content: "First question" }] },
    { headers },
  );
  for (const other of [
    () =>
      client.chat.completions.create(
        { model: "thinking-chat", messages: [{ role: "user", content: "Another question" }] },
        { headers },
      ),
    () => client.responses.create({ model: "thinking-chat", input: "First question" }, { headers }),
  ]) {
    const err = await other().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.ConflictError);
    const conflict = err as InstanceType<typeof OpenAI.ConflictError>;
    expect(conflict.message).toMatch(/Idempotency-Key 'used-once' was already used/);
    expect(conflict.headers.get("x-should-retry")).toBe("false");
  }
  expect(await conversationsOf(user)).toHaveLength(1);

  // Keys are per user: someone else's same key is a request of their own.
  const stranger = await createUser();
  const theirs = await openAiClient(stranger).chat.completions.create(
    { model: "thinking-chat", messages: [{ role: "user", content: "Another question" }] },
    { headers },
  );
  expect(theirs.id).not.toBe(first.id);
}, 60_000);

it("says what is wrong with a key it cannot take", async () => {
  const user = await createUser();
  const err = await openAiClient(user)
    .chat.completions.create(
      { model: "thinking-chat", messages: [{ role: "user", content: "Hi" }] },
      { headers: { "Idempotency-Key": "k".repeat(256) } },
    )
    .catch((e: unknown) => e);
  expect(err).toBeInstanceOf(OpenAI.BadRequestError);
  expect((err as Error).message).toMatch(/Idempotency-Key must be at most 255 characters/);
  expect(await conversationsOf(user)).toEqual([]);
});
