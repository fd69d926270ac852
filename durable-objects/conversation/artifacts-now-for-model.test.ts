// What the model is told of artifacts in later turns: an earlier answer's artifact under its title
// now (renamed since), marked when the user deleted it, and titles without bidi controls (a
// pinned artifact's, read raw from D1, as an old row may still hold them).
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import {
  api,
  createConversation,
  createUser,
  insertArtifact,
  type TestUser,
} from "../../tests/support/helpers";
import { TestSocket, turnEnded } from "../../tests/support/ws-client";
import type { MessagePart } from "../protocol/messages";
import type { Conversation } from "./conversation";

/** One message over the conversation's socket, until its turn ended. */
async function ask(user: TestUser, conversationId: string, text: string) {
  const ws = await TestSocket.openSynced(user, conversationId);
  // The replay holds the earlier turns' ends: wait for one more.
  const ended = () => ws.frames.filter((f) => turnEnded([f])).length;
  const before = ended();
  ws.send({ type: "send", clientMessageId: crypto.randomUUID(), text });
  await ws.until(() => ended() > before, 30_000);
  ws.close();
}

/** The requests the provider received that hold `marker`, from aimock's request journal. */
async function requestsWith(marker: string): Promise<string[]> {
  const journal = (await (
    await fetch(`${inject("aimockUrl")}/__aimock/journal?limit=1000`)
  ).json()) as unknown;
  const entries = Array.isArray(journal)
    ? journal
    : ((journal as { entries?: unknown[] }).entries ?? []);
  return entries.map((e) => JSON.stringify(e)).filter((s) => s.includes(marker));
}

/** A conversation whose first answer made the artifact "Snippet" (tests/support/branch-fixtures). */
async function answeredWithSnippet() {
  const user = await createUser();
  const conv = await createConversation(user);
  await ask(user, conv.id, "make a snippet to branch");
  for (let i = 0; ; i++) {
    const listed = (await (await api(user, `/api/conversations/${conv.id}/artifacts`)).json()) as {
      items: Array<{ id: string; updatedAt: number }>;
    };
    const snippet = listed.items[0];
    if (snippet) return { user, conversationId: conv.id, snippet };
    if (i > 100) throw new Error("the answer's artifact never reached D1");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("the model's history of earlier answers", () => {
  it("names an artifact renamed since under its title now", async () => {
    const { user, conversationId, snippet } = await answeredWithSnippet();
    const renamed = await api(user, `/api/artifacts/${snippet.id}`, {
      method: "PATCH",
      json: { title: "Tide snippet", baseUpdatedAt: snippet.updatedAt },
    });
    expect(renamed.status).toBe(200);
    const marker = `renamed-${crypto.randomUUID()}`;
    await ask(user, conversationId, `answer me twice ${marker}`);
    const [sent] = await requestsWith(marker);
    expect(sent).toContain(`- Tide snippet (application/vnd.ant.code, artifact ${snippet.id})`);
    expect(sent).not.toContain("- Snippet (");
  }, 60_000);

  it("tells the model an artifact the user deleted is gone", async () => {
    const { user, conversationId, snippet } = await answeredWithSnippet();
    expect((await api(user, `/api/artifacts/${snippet.id}`, { method: "DELETE" })).status).toBe(
      204,
    );
    const marker = `deleted-${crypto.randomUUID()}`;
    await ask(user, conversationId, `answer me twice ${marker}`);
    const [sent] = await requestsWith(marker);
    expect(sent).toContain(
      `- Snippet (application/vnd.ant.code, artifact ${snippet.id}; the user has deleted it since)`,
    );
  }, 60_000);
});

describe("a pinned artifact's title in the system prompt", () => {
  it("has no bidi controls, even from a row written before they were dropped", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const id = crypto.randomUUID();
    // As an old row holds it: the controls that make "invoice‮fdp.exe" read "invoiceexe.pdf".
    await env.DB.prepare(
      "INSERT INTO artifacts (id, conversation_id, type, title, content, pinned) VALUES (?, ?, 'text/markdown', ?, '# notes', 1)",
    )
      .bind(id, conv.id, "invoice\u202efdp.exe\u2066 notes\u2069")
      .run();
    const marker = `pinned-${crypto.randomUUID()}`;
    await ask(user, conv.id, `answer me twice ${marker}`);
    const [sent] = await requestsWith(marker);
    expect(sent).toContain("### invoicefdp.exe notes (text/markdown)");
    expect(sent).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  }, 60_000);
});

describe("the rolling summary of older messages", () => {
  it("names their artifacts as they are now: renamed, or deleted since", async () => {
    const user = await createUser();
    // A 4,000-token window: the older part is summarised past 1,000 tokens.
    const conv = await createConversation(user, { settings: { contextWindow: 4_000 } });
    const marker = `summary-${crypto.randomUUID()}`;
    const plan = await insertArtifact(conv.id, { title: "Plan", content: "# plan" });
    const chart = await insertArtifact(conv.id, { title: "Chart", content: "{}" });
    const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(conv.id));
    await runInDurableObject(stub, (instance: Conversation) => {
      for (let i = 1; i <= 30; i++) {
        const artifacts: MessagePart[] =
          i === 2
            ? [
                {
                  type: "artifact",
                  artifactId: plan,
                  artifactType: "text/markdown",
                  title: "Plan",
                },
                { type: "artifact", artifactId: chart, artifactType: "image/png", title: "Chart" },
              ]
            : [];
        instance.store.putMessage({
          id: crypto.randomUUID(),
          role: i % 2 === 1 ? "user" : "assistant",
          content: [
            { type: "text", text: `${marker} old ${i}: ${"detail ".repeat(40)}` },
            ...artifacts,
          ],
          status: "complete",
          seq: i,
          clientMessageId: null,
          createdAt: Date.now(),
        });
      }
    });
    const { updatedAt } = (await (await api(user, `/api/artifacts/${plan}`)).json()) as {
      updatedAt: number;
    };
    const renamed = await api(user, `/api/artifacts/${plan}`, {
      method: "PATCH",
      json: { title: "Tide plan", baseUpdatedAt: updatedAt },
    });
    expect(renamed.status).toBe(200);
    expect((await api(user, `/api/artifacts/${chart}`, { method: "DELETE" })).status).toBe(204);

    await ask(user, conv.id, `answer me twice ${marker}`);
    const summaryRequest = async () =>
      (await requestsWith(marker)).find((r) => r.includes("running summary of a conversation"));
    for (let i = 0; !(await summaryRequest()) && i < 100; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(await summaryRequest()).toContain("[artifacts: Tide plan; Chart (deleted since)]");
  }, 60_000);
});
