// A message keeps the title an artifact had when its answer was written; whoever reads the message
// later (the REST pages, the JSON export, a read-only link) reads the artifact as it is now: under
// its title now, and marked when it was deleted, an attached file too.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { MessagePart } from "../../../../durable-objects/protocol/messages";
import type { SharedSnapshot, ShareLink } from "../../../../durable-objects/protocol/sharing";
import {
  api,
  createConversation,
  createUser,
  insertArtifact,
  type TestUser,
} from "../../../../tests/support/helpers";

/** A question with a file and an answer with two artifacts, then one renamed and two deleted. */
async function conversationChangedSince() {
  const owner = await createUser();
  const conv = await createConversation(owner, { title: "Tides" });
  const plan = await insertArtifact(conv.id, { title: "Plan", content: "# plan" });
  const chart = await insertArtifact(conv.id, { title: "Chart", content: "{}" });
  const file = await insertArtifact(conv.id, { type: "attachment", title: "tides.csv" });
  const question: MessagePart[] = [
    { type: "text", text: "Plot these" },
    {
      type: "attachment",
      artifactId: file,
      name: "tides.csv",
      contentType: "text/csv",
      size: 12,
      kind: "table",
    },
  ];
  const answer: MessagePart[] = [
    { type: "text", text: "Here they are." },
    { type: "artifact", artifactId: plan, artifactType: "text/markdown", title: "Plan" },
    { type: "artifact", artifactId: chart, artifactType: "application/json", title: "Chart" },
  ];
  const insert = env.DB.prepare(
    "INSERT INTO messages (id, conversation_id, role, content, seq) VALUES (?, ?, ?, ?, ?)",
  );
  await env.DB.batch([
    insert.bind(crypto.randomUUID(), conv.id, "user", JSON.stringify(question), 1),
    insert.bind(crypto.randomUUID(), conv.id, "assistant", JSON.stringify(answer), 2),
  ]);
  const { updatedAt } = (await (await api(owner, `/api/artifacts/${plan}`)).json()) as {
    updatedAt: number;
  };
  const renamed = await api(owner, `/api/artifacts/${plan}`, {
    method: "PATCH",
    json: { title: "Plan B", baseUpdatedAt: updatedAt },
  });
  expect(renamed.status).toBe(200);
  for (const id of [chart, file])
    expect((await api(owner, `/api/artifacts/${id}`, { method: "DELETE" })).status).toBe(204);
  return { owner, conversationId: conv.id, plan, chart, file };
}

/** What a reader is shown of the file and the two artifacts. */
function shown(messages: Array<{ content: MessagePart[] }>) {
  return messages.flatMap((m) =>
    m.content.flatMap((p) =>
      p.type === "artifact"
        ? [{ id: p.artifactId, title: p.title, deleted: p.deleted ?? false }]
        : p.type === "attachment"
          ? [{ id: p.artifactId, title: p.name, deleted: p.deleted ?? false }]
          : [],
    ),
  );
}

const expected = (c: Awaited<ReturnType<typeof conversationChangedSince>>) => [
  { id: c.file, title: "tides.csv", deleted: true },
  { id: c.plan, title: "Plan B", deleted: false },
  { id: c.chart, title: "Chart", deleted: true },
];

async function json<T>(user: TestUser | null, path: string): Promise<T> {
  const res = await api(user, path);
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

describe("an artifact renamed or deleted since its message was written", () => {
  it("reads as it is now in the REST pages of messages", async () => {
    const c = await conversationChangedSince();
    const page = await json<{ items: Array<{ content: MessagePart[] }> }>(
      c.owner,
      `/api/conversations/${c.conversationId}/messages`,
    );
    expect(shown(page.items)).toEqual(expected(c));
    // The stored message is left as it was written.
    const row = await env.DB.prepare(
      "SELECT content FROM messages WHERE conversation_id = ? AND role = 'assistant'",
    )
      .bind(c.conversationId)
      .first<{ content: string }>();
    expect(row?.content).toContain('"title":"Plan"');
  });

  it("reads as it is now in the JSON export", async () => {
    const c = await conversationChangedSince();
    const exported = await json<{ messages: Array<{ content: MessagePart[] }> }>(
      c.owner,
      `/api/conversations/${c.conversationId}/export?format=json`,
    );
    expect(shown(exported.messages)).toEqual(expected(c));
  });

  it("reads as it is now in the Markdown export, a deleted file marked", async () => {
    const c = await conversationChangedSince();
    const res = await api(c.owner, `/api/conversations/${c.conversationId}/export`);
    expect(res.status).toBe(200);
    const markdown = await res.text();
    expect(markdown).toMatch(/- Attached: tides\.csv \(text\/csv, [^)]+\), deleted since\./);
    expect(markdown).toContain("**Artifact: Plan B** (text/markdown)");
    expect(markdown).toContain("**Artifact: Chart** (application/json): deleted since.");
  });

  it("reads as it is now through a read-only link", async () => {
    const c = await conversationChangedSince();
    const created = await api(c.owner, `/api/conversations/${c.conversationId}/links`, {
      method: "POST",
      json: { expiresInDays: 7 },
    });
    expect(created.status).toBe(201);
    const link = (await created.json()) as ShareLink;
    const snapshot = await json<SharedSnapshot>(null, `/api/shared/${link.token}`);
    expect(shown(snapshot.messages)).toEqual(expected(c));
  });
});
