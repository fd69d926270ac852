// A turn that fails, as the official `openai` SDK with its default retries meets it: one request
// stores one message (the answer tells the SDK not to send it again, since the conversation
// already retried the provider), and a provider's rate limit is a 429, not a 502.
import OpenAI from "openai";
import { openAiClient } from "../../../../tests/support/openai-client";
import { beforeAll, expect, it } from "vitest";
import {
  PROVIDER_DOWN,
  PROVIDER_RATE_LIMITED,
} from "../../../../tests/support/openai-compat-fixtures";
import {
  api,
  createConversation,
  createUser,
  type TestUser,
} from "../../../../tests/support/helpers";
import type { ChatMessage } from "../../../../durable-objects/protocol/messages";

let user: TestUser;
/** The SDK as people use it: maxRetries left at its default (2). */
let client: OpenAI;
beforeAll(async () => {
  user = await createUser();
  client = openAiClient(user, { sdkRetries: true });
});

async function messagesOf(conversationId: string): Promise<ChatMessage[]> {
  const res = await api(user, `/api/conversations/${conversationId}/messages`);
  return ((await res.json()) as { items: ChatMessage[] }).items;
}

async function conversationCount(): Promise<number> {
  const res = await api(user, "/api/conversations");
  return ((await res.json()) as { items: unknown[] }).items.length;
}

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail("the request should have failed"),
    (err: unknown) => err as InstanceType<typeof OpenAI.APIError>,
  );

it("stores a failed turn once, though the SDK retries 5xx by default", async () => {
  const { id } = await createConversation(user);
  const err = await rejection(
    client.chat.completions.create(
      { model: "thinking-chat", messages: [{ role: "user", content: `${PROVIDER_DOWN}, once` }] },
      { headers: { "X-Conversation-Id": id } },
    ),
  );
  const stored = await messagesOf(id);
  expect(stored.map((m) => [m.role, m.status])).toEqual([
    ["user", "complete"],
    ["assistant", "failed"],
  ]);
  expect(err.status).toBe(502);
  expect(err.headers?.get("x-should-retry")).toBe("false");

  // Without X-Conversation-Id, one request makes one conversation; the same on /v1/responses.
  const before = await conversationCount();
  await rejection(
    client.chat.completions.create({
      model: "thinking-chat",
      messages: [{ role: "user", content: `${PROVIDER_DOWN}, in a new conversation` }],
    }),
  );
  await rejection(
    client.responses.create({ model: "thinking-chat", input: `${PROVIDER_DOWN}, as a response` }),
  );
  expect(await conversationCount()).toBe(before + 2);
}, 90_000);

it("answers a turn the provider rate-limited with 429 rate_limited, not to be retried", async () => {
  const { id } = await createConversation(user);
  const err = await rejection(
    client.chat.completions.create(
      { model: "thinking-chat", messages: [{ role: "user", content: PROVIDER_RATE_LIMITED }] },
      { headers: { "X-Conversation-Id": id } },
    ),
  );
  expect(err).toBeInstanceOf(OpenAI.RateLimitError);
  expect(err.code).toBe("rate_limited");
  expect(err.message).toMatch(/rate limiting/);
  expect(err.headers?.get("x-should-retry")).toBe("false");
  // aimock's 429 says Retry-After: 1; the provider's wait is passed on.
  expect(err.headers?.get("retry-after")).toBe("1");
  expect((await messagesOf(id)).filter((m) => m.role === "user")).toHaveLength(1);
}, 90_000);
