// /v1/chat/completions into a shared conversation (X-Conversation-Id): a participant may send
// there as in the web client, a viewer is told why not, a stranger learns nothing, and a
// participant the owner removes (or who leaves) while their answer is coming is told so.
import { describe, expect, inject, it } from "vitest";
import { TestSocket } from "../../../../tests/support/ws-client";
import {
  api,
  createUser,
  sharedConversation,
  errorOf,
  type TestUser,
} from "../../../../tests/support/helpers";

async function sharedByApi() {
  const shared = await sharedConversation({ title: "Shared by API" });
  return { ...shared, stranger: await createUser(`dee-${shared.suffix}`) };
}

function complete(user: TestUser, conversationId: string, text: string) {
  return api(user, "/v1/chat/completions", {
    method: "POST",
    headers: { "x-conversation-id": conversationId },
    json: { model: "thinking-chat", messages: [{ role: "user", content: text }] },
  });
}

describe("/v1/chat/completions in a shared conversation", () => {
  it("lets a participant send, and the message lands in the owner's conversation", async () => {
    const { owner, participant, id } = await sharedByApi();
    const res = await complete(participant, id, "hello from the participant's SDK");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-conversation-id")).toBe(id);
    const body = (await res.json()) as { choices: Array<{ message: { role: string } }> };
    expect(body.choices[0]?.message.role).toBe("assistant");

    const messages = await api(owner, `/api/conversations/${id}/messages`);
    expect(messages.status).toBe(200);
    const text = JSON.stringify(await messages.json());
    expect(text).toContain("hello from the participant's SDK");
  });

  it("refuses a viewer with 403 saying to ask for the participant role", async () => {
    const { viewer, id } = await sharedByApi();
    const res = await complete(viewer, id, "may I?");
    expect(res.status).toBe(403);
    expect((await errorOf(res)).message).toMatch(/viewer.*participant/);
  });

  it("gives a stranger 404, as if the conversation did not exist", async () => {
    const { stranger, id } = await sharedByApi();
    expect((await complete(stranger, id, "hi")).status).toBe(404);
  });

  it("a participant removed while their answer waits is told the owner stopped sharing, streamed or not", async () => {
    await answerEndedByLosingAccess("removed", /owner stopped sharing this conversation with you/);
  }, 60_000);

  it("a participant who leaves while their answer waits is told they left, streamed or not", async () => {
    await answerEndedByLosingAccess("left", /You left this conversation/);
  }, 60_000);
});

/** A participant's /v1 answer waits for an approval while they lose the conversation. */
async function answerEndedByLosingAccess(how: "removed" | "left", says: RegExp) {
  for (const stream of [false, true]) {
    const { owner, participant, id } = await sharedByApi();
    const added = await api(owner, "/api/mcp-servers", {
      method: "POST",
      json: { name: "notes", url: inject("approvalUrl") },
    });
    expect(added.status).toBe(201);
    const watch = await TestSocket.open(owner, id);
    watch.send({ type: "resume", lastSeq: 0 });
    // The answer waits for the owner's approval of the tool call it asked for.
    const sent = api(participant, "/v1/chat/completions", {
      method: "POST",
      headers: { "x-conversation-id": id },
      json: {
        model: "thinking-chat",
        stream,
        messages: [{ role: "user", content: "tidy my notes" }],
      },
    });
    // A streamed answer's headers come at once; a whole one's once the turn is over.
    const body = stream ? (await sent).text() : null;
    await watch.until(() => watch.events().some((e) => e.type === "approval_requested"), 30_000);
    // The owner removes them, or they leave (in the web client, say).
    const by = how === "removed" ? owner : participant;
    const removed = await api(by, `/api/conversations/${id}/members/${participant.id}`, {
      method: "DELETE",
    });
    expect(removed.status).toBe(204);
    let error: { message: string; type: string; code: string } | undefined;
    if (body) {
      // The stream ends with the reason, not "the conversation still has the rest".
      const events = (await body).split("\n\n").filter((b) => b.startsWith("data: {"));
      error = (JSON.parse(events.at(-1)!.slice(6)) as { error?: typeof error }).error;
    } else {
      const refused = await sent;
      expect(refused.status).toBe(403);
      error = ((await refused.json()) as { error: typeof error }).error;
    }
    expect(error).toMatchObject({ type: "permission_error", code: "forbidden" });
    expect(error?.message).toMatch(says);
    watch.close();
  }
}
