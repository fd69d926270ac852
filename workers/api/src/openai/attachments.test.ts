// POST /v1/chat/completions takes our `attachments` extension: artifact ids of attachments of the
// conversation named by X-Conversation-Id, sent with the message as the chat route sends them.
import { beforeAll, describe, expect, it } from "vitest";
import { attach, pngBytes } from "../../../../tests/support/attachment-fixtures";
import {
  api,
  createConversation,
  createUser,
  errorOf,
  type TestUser,
} from "../../../../tests/support/helpers";
import type { ChatMessage } from "../../../../durable-objects/protocol/messages";

let user: TestUser;
beforeAll(async () => {
  user = await createUser();
});

const complete = (conversationId: string | null, attachments: string[]) =>
  api(user, "/v1/chat/completions", {
    method: "POST",
    headers: conversationId ? { "x-conversation-id": conversationId } : {},
    json: {
      model: "thinking-chat",
      messages: [{ role: "user", content: "What is in this image?" }],
      attachments,
    },
  });

describe("attachments in /v1/chat/completions", () => {
  it("sends them with the message of the named conversation", async () => {
    const { id } = await createConversation(user);
    const image = await attach(user, id, "blot.png", pngBytes());
    const res = await complete(id, [image]);
    expect(res.status).toBe(200);
    const messages = (await (await api(user, `/api/conversations/${id}/messages`)).json()) as {
      items: ChatMessage[];
    };
    expect(messages.items[0]?.content).toContainEqual(
      expect.objectContaining({ type: "attachment", artifactId: image, name: "blot.png" }),
    );
  }, 60_000);

  it("refuses an unknown id with 400 invalid_attachment, and attachments without a conversation", async () => {
    const { id } = await createConversation(user);
    const unknown = await complete(id, ["nope"]);
    expect(unknown.status).toBe(400);
    expect(await errorOf(unknown)).toMatchObject({ code: "invalid_attachment" });
    const unnamed = await complete(null, ["nope"]);
    expect(unnamed.status).toBe(400);
    expect((await errorOf(unnamed)).message).toContain("x-conversation-id");
  });
});
