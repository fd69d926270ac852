// GET /api/conversations/:id/messages comes in pages that say where the next one starts, so a
// long conversation is never cut short without the client knowing.
import { env } from "cloudflare:test";
import { expect, it } from "vitest";
import { MessagePage } from "../../../../durable-objects/protocol/messages";
import {
  api,
  createConversation,
  createUser,
  type TestUser,
} from "../../../../tests/support/helpers";

async function putMessages(conversationId: string, count: number) {
  const insert = env.DB.prepare(
    "INSERT INTO messages (id, conversation_id, role, content, seq) VALUES (?, ?, 'user', ?, ?)",
  );
  await env.DB.batch(
    Array.from({ length: count }, (_, i) =>
      insert.bind(
        crypto.randomUUID(),
        conversationId,
        JSON.stringify([{ type: "text", text: `m${i + 1}` }]),
        i + 1,
      ),
    ),
  );
}

async function page(user: TestUser, id: string, query: string) {
  const res = await api(user, `/api/conversations/${id}/messages${query}`);
  expect(res.status).toBe(200);
  return MessagePage.parse(await res.json());
}

it("says where the next page starts until the last message, then null", async () => {
  const user = await createUser();
  const conversation = await createConversation(user);
  await putMessages(conversation.id, 5);

  const first = await page(user, conversation.id, "?limit=2");
  expect(first.items.map((m) => m.seq)).toEqual([1, 2]);
  expect(first.nextAfter).toBe(2);
  const second = await page(user, conversation.id, `?limit=2&after=${first.nextAfter}`);
  expect(second.items.map((m) => m.seq)).toEqual([3, 4]);
  const last = await page(user, conversation.id, `?limit=2&after=${second.nextAfter}`);
  expect(last.items.map((m) => m.seq)).toEqual([5]);
  expect(last.nextAfter).toBeNull();

  // A page that happens to hold exactly the rest is the end too.
  expect((await page(user, conversation.id, "?limit=5")).nextAfter).toBeNull();
});

it("a conversation longer than the default page says there is more", async () => {
  const user = await createUser();
  const conversation = await createConversation(user);
  await putMessages(conversation.id, 201);
  const first = await page(user, conversation.id, "");
  expect(first.items).toHaveLength(200);
  expect(first.nextAfter).toBe(200);
  const rest = await page(user, conversation.id, `?after=${first.nextAfter}`);
  expect(rest.items.map((m) => m.seq)).toEqual([201]);
  expect(rest.nextAfter).toBeNull();
});

it("an empty conversation is one empty last page", async () => {
  const user = await createUser();
  const conversation = await createConversation(user);
  expect(await page(user, conversation.id, "")).toEqual({ items: [], nextAfter: null });
});
