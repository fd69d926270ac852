// Exporting a conversation: the whole of it, as Markdown or JSON, to whoever may read it.
import { describe, expect, it } from "vitest";
import {
  api,
  createConversation,
  createUser,
  errorOf,
  insertArtifact,
} from "../../../../tests/support/helpers";
import { TestSocket, turnEnded } from "../../../../tests/support/ws-client";

async function answeredConversation() {
  const suffix = crypto.randomUUID().slice(0, 8);
  const owner = await createUser(`owner-${suffix}`);
  const conv = await createConversation(owner, { title: "Greetings, friend" });
  const ws = await TestSocket.open(owner, conv.id);
  ws.send({ type: "resume", lastSeq: 0 });
  ws.send({ type: "send", clientMessageId: "e1", text: "hello there" });
  await ws.until(turnEnded);
  ws.close();
  // The outbox lands both messages in D1, where the export reads them.
  for (let i = 0; i < 100; i++) {
    const page = (await (await api(owner, `/api/conversations/${conv.id}/messages`)).json()) as {
      items: unknown[];
    };
    if (page.items.length === 2) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const artifactId = await insertArtifact(conv.id, {
    type: "application/vnd.ant.code",
    title: "hello.py",
    language: "python",
    content: 'print("hello")',
  });
  return { owner, conv, artifactId, suffix };
}

describe("GET /api/conversations/:id/export", () => {
  it("gives the conversation as a Markdown file named after its title, and as JSON with everything", async () => {
    const { owner, conv, artifactId, suffix } = await answeredConversation();

    const md = await api(owner, `/api/conversations/${conv.id}/export`);
    expect(md.status).toBe(200);
    expect(md.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(md.headers.get("content-disposition")).toBe(
      `attachment; filename="Greetings-friend.md"; filename*=UTF-8''Greetings-friend.md`,
    );
    const text = await md.text();
    expect(text).toMatch(/^# Greetings, friend\n/);
    expect(text).toContain(`### owner-${suffix} · `);
    expect(text).toContain("hello there");
    expect(text).toContain("Hello! I am a mock model.");
    expect(text).toContain(
      '**Artifact: hello.py** (application/vnd.ant.code)\n\n```python\nprint("hello")\n```',
    );

    const json = await api(owner, `/api/conversations/${conv.id}/export?format=json`);
    expect(json.status).toBe(200);
    expect(json.headers.get("content-disposition")).toContain('filename="Greetings-friend.json"');
    const body = (await json.json()) as {
      conversation: { id: string; title: string };
      messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }>;
      artifacts: Array<{ id: string; content: string | null }>;
    };
    expect(body.conversation).toMatchObject({ id: conv.id, title: "Greetings, friend" });
    expect(body.messages.map((m) => [m.role, m.content[0]?.text])).toEqual([
      ["user", "hello there"],
      ["assistant", "Hello! I am a mock model."],
    ]);
    expect(body.artifacts).toEqual([
      expect.objectContaining({ id: artifactId, content: 'print("hello")' }),
    ]);
  });

  it("is for whoever may read the conversation, and says which formats there are", async () => {
    const { owner, conv, suffix } = await answeredConversation();
    const viewer = await createUser(`viewer-${suffix}`);
    const stranger = await createUser();
    const shared = await api(owner, `/api/conversations/${conv.id}/members`, {
      method: "PUT",
      json: { user: `viewer-${suffix}`, role: "viewer" },
    });
    expect(shared.status).toBeLessThan(300);
    expect((await api(viewer, `/api/conversations/${conv.id}/export`)).status).toBe(200);
    const refused = await api(stranger, `/api/conversations/${conv.id}/export`);
    expect(refused.status).toBe(404);

    const bad = await api(owner, `/api/conversations/${conv.id}/export?format=pdf`);
    expect(bad.status).toBe(400);
    const error = await errorOf(bad);
    expect(error.code).toBe("validation_failed");
    expect(error.message).toMatch(/format/);
    expect(error.message).toMatch(/markdown.*json/);
  });
});
