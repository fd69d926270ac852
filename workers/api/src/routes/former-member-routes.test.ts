// A member who left a conversation, or whom its owner removed, and who still calls its REST routes,
// its event stream or /v1 (a script, an open page's poll): each answers 403 saying which of the
// two it was, in the words their sockets are closed with, not 404 as if it never existed.
import { describe, expect, it } from "vitest";
import {
  CLOSE_REASON_ACCESS_REVOKED,
  CLOSE_REASON_LEFT,
} from "../../../../durable-objects/protocol/close-codes";
import {
  addMembers,
  api,
  createUser,
  insertArtifact,
  sharedConversation,
  type TestUser,
} from "../../../../tests/support/helpers";

interface Refusal {
  status: number;
  code?: string;
  message?: string;
  reason?: unknown;
}

async function refusal(res: Response): Promise<Refusal> {
  const body = (await res.json().catch(() => null)) as {
    error?: { code?: string; message?: string; details?: { reason?: unknown } };
  } | null;
  return {
    status: res.status,
    code: body?.error?.code,
    message: body?.error?.message,
    reason: body?.error?.details?.reason,
  };
}

/** The conversation's routes a member uses, each as `user` calls it. */
function calls(id: string, artifactId: string) {
  return {
    "GET /events": (u: TestUser) => api(u, `/api/conversations/${id}/events`),
    "GET /messages": (u: TestUser) => api(u, `/api/conversations/${id}/messages`),
    "GET conversation": (u: TestUser) => api(u, `/api/conversations/${id}`),
    "GET /members": (u: TestUser) => api(u, `/api/conversations/${id}/members`),
    "GET /artifacts": (u: TestUser) => api(u, `/api/conversations/${id}/artifacts`),
    "GET /usage": (u: TestUser) => api(u, `/api/conversations/${id}/usage`),
    "GET artifact download": (u: TestUser) => api(u, `/api/artifacts/${artifactId}/download`),
    "POST /chat": (u: TestUser) =>
      api(u, `/api/conversations/${id}/chat`, {
        method: "POST",
        json: { clientMessageId: `m-${crypto.randomUUID()}`, text: "still here?" },
      }),
    "POST /approvals": (u: TestUser) =>
      api(u, `/api/conversations/${id}/approvals/${crypto.randomUUID()}`, {
        method: "POST",
        json: { decision: "approve" },
      }),
    "POST /ws-ticket": (u: TestUser) =>
      api(u, `/api/conversations/${id}/ws-ticket`, { method: "POST" }),
    "POST /v1/chat/completions": (u: TestUser) =>
      api(u, "/v1/chat/completions", {
        method: "POST",
        headers: { "x-conversation-id": id },
        json: { model: "thinking-chat", messages: [{ role: "user", content: "hi" }] },
      }),
  };
}

async function everyCall(id: string, artifactId: string, user: TestUser) {
  const answers: Record<string, Refusal> = {};
  for (const [name, call] of Object.entries(calls(id, artifactId)))
    answers[name] = await refusal(await call(user));
  return answers;
}

const each = (id: string, artifactId: string, expected: Refusal) =>
  Object.fromEntries(Object.keys(calls(id, artifactId)).map((name) => [name, expected]));

describe("a former member calling the conversation's routes", () => {
  it("one who left is told they left; one removed that the owner stopped sharing; a stranger still gets 404", async () => {
    const { owner, participant, viewer, id } = await sharedConversation();
    const artifactId = await insertArtifact(id, { title: "Notes", content: "# notes" });
    const left = await api(participant, `/api/conversations/${id}/members/${participant.id}`, {
      method: "DELETE",
    });
    expect(left.status).toBe(204);
    const removed = await api(owner, `/api/conversations/${id}/members/${viewer.id}`, {
      method: "DELETE",
    });
    expect(removed.status).toBe(204);

    expect(await everyCall(id, artifactId, participant)).toEqual(
      each(id, artifactId, {
        status: 403,
        code: "forbidden",
        message:
          "You left this conversation: you can no longer read it or send to it. Only its owner can share it with you again.",
        reason: CLOSE_REASON_LEFT,
      }),
    );
    expect(await everyCall(id, artifactId, viewer)).toEqual(
      each(id, artifactId, {
        status: 403,
        code: "forbidden",
        message:
          "The owner stopped sharing this conversation with you: you can no longer read it or send to it. Ask the owner to share it with you again.",
        reason: CLOSE_REASON_ACCESS_REVOKED,
      }),
    );
    const stranger = await createUser();
    const strangers = await everyCall(id, artifactId, stranger);
    for (const [name, answer] of Object.entries(strangers))
      expect(answer.status, `${name} for a stranger`).toBe(404);
  });

  it("shared with again, they read it as before", async () => {
    const { owner, participant, id } = await sharedConversation();
    await api(participant, `/api/conversations/${id}/members/${participant.id}`, {
      method: "DELETE",
    });
    expect((await api(participant, `/api/conversations/${id}/messages`)).status).toBe(403);
    await addMembers(owner, id, [[participant, "viewer"]]);
    expect((await api(participant, `/api/conversations/${id}/messages`)).status).toBe(200);
    // As a viewer now: refused for what a viewer may not do, with the viewer's reason.
    const usage = await refusal(await api(participant, `/api/conversations/${id}/usage`));
    expect(usage.status).toBe(403);
    expect(usage.message).toMatch(/viewer/);
    expect(usage.reason).toBeUndefined();
  });
});
