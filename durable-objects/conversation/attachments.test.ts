// Sending attachments: a send names uploaded attachments by id; the user message shows them as
// attachment parts, the model receives them (aimock's journal is the witness), and an id that
// is not an attachment of this conversation is refused with nothing stored.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, inject, it } from "vitest";
import {
  api,
  createConversation,
  createUser,
  insertArtifact,
  type TestUser,
} from "../../tests/support/helpers";
import { attach, pdfBytes, pngBytes } from "../../tests/support/attachment-fixtures";
import { SseReader } from "../../tests/support/sse-client";
import { TestSocket } from "../../tests/support/ws-client";
import type { ChatMessage } from "../protocol/messages";

let user: TestUser;
beforeAll(async () => {
  user = await createUser();
});

function chat(conversationId: string, body: Record<string, unknown>) {
  return api(user, `/api/conversations/${conversationId}/chat`, {
    method: "POST",
    json: { clientMessageId: crypto.randomUUID(), ...body },
  });
}

/** The raw bodies aimock received whose text contains `marker`. */
async function requestsWith(marker: string): Promise<string[]> {
  const res = await fetch(`${inject("aimockUrl")}/__aimock/journal?limit=5000`);
  const journal = (await res.json()) as unknown;
  const entries = (
    Array.isArray(journal) ? journal : ((journal as { entries?: unknown[] }).entries ?? [])
  ) as Array<{ body?: unknown }>;
  return entries.map((e) => JSON.stringify(e.body ?? null)).filter((raw) => raw.includes(marker));
}

async function messagesOf(conversationId: string): Promise<ChatMessage[]> {
  const res = await api(user, `/api/conversations/${conversationId}/messages`);
  return ((await res.json()) as { items: ChatMessage[] }).items;
}

describe("a message with attachments", () => {
  it("shows them in the user message, links them to it, and sends them to the model", async () => {
    const { id } = await createConversation(user);
    const image = await attach(user, id, "blot.png", pngBytes());
    const paper = await attach(user, id, "paper.pdf", pdfBytes());
    const table = await attach(user, id, "doses.csv", "drug,dose\naspirin,81\n");
    const marker = `attachments-${crypto.randomUUID().slice(0, 8)}`;
    const res = await chat(id, {
      text: `${marker} What do these show?`,
      attachments: [image, paper, table],
    });
    expect(res.status).toBe(200);
    const events = await new SseReader(res).done(30_000);
    const sent = events.find((e) => e.type === "user_message");
    expect(sent?.type === "user_message" && sent.message.content).toEqual([
      { type: "text", text: `${marker} What do these show?` },
      {
        type: "attachment",
        artifactId: image,
        name: "blot.png",
        contentType: "image/png",
        size: pngBytes().length,
        kind: "image",
      },
      expect.objectContaining({ artifactId: paper, kind: "pdf", contentType: "application/pdf" }),
      expect.objectContaining({ artifactId: table, kind: "table", contentType: "text/csv" }),
    ]);
    expect(events.some((e) => e.type === "turn_ended")).toBe(true);

    // aimock's journal keeps the text of a request (its image and document blocks are checked
    // on the wire in providers/attachments.test.ts and attachment-history.test.ts): each file is
    // named, and the CSV is inline.
    const [request] = await requestsWith(marker);
    expect(request).toContain("[Attachment: blot.png (image/png");
    expect(request).toContain("[Attachment: paper.pdf (application/pdf");
    expect(request).toContain("[Attachment: doses.csv (text/csv");
    expect(request).toContain("aspirin,81");

    // The attachments belong to the message now (the outbox links them in D1).
    const userMessage = (await messagesOf(id)).find((m) => m.role === "user")!;
    await expect
      .poll(async () => {
        const rows = await env.DB.prepare(
          "SELECT id FROM artifacts WHERE message_id = ? ORDER BY id",
        )
          .bind(userMessage.id)
          .all<{ id: string }>();
        return rows.results.map((r) => r.id);
      })
      .toEqual([image, paper, table].sort());
  }, 90_000);

  it("refuses an unknown id over REST/SSE with a clear 400, and stores nothing", async () => {
    const { id } = await createConversation(user);
    const res = await chat(id, { text: "look at this", attachments: ["no-such-attachment"] });
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe("invalid_attachment");
    expect(error.message).toContain(
      "'no-such-attachment' is not an attachment of this conversation",
    );
    expect(await messagesOf(id)).toEqual([]);
  });

  it("refuses more than 10 attachments before anything reaches the conversation", async () => {
    const { id } = await createConversation(user);
    const res = await chat(id, {
      text: "many",
      attachments: Array.from({ length: 11 }, (_, i) => `a${i}`),
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("at most 10 attachments");
  });

  it("refuses, over the WebSocket, another conversation's attachment and an artifact that is no attachment", async () => {
    const { id } = await createConversation(user);
    const other = await createConversation(user);
    const foreign = await attach(user, other.id, "blot.png", pngBytes());
    const notAnAttachment = await insertArtifact(id, { type: "code", title: "snippet" });
    const ws = await TestSocket.open(user, id);
    ws.send({ type: "resume", lastSeq: 0 });
    await ws.until((frames) => frames.some((f) => f.type === "synced"));
    for (const attachments of [[foreign], [notAnAttachment]]) {
      ws.send({ type: "send", clientMessageId: crypto.randomUUID(), text: "see", attachments });
      await ws.until(
        (frames) =>
          frames.filter((f) => f.type === "frame_error").length ===
          (attachments[0] === foreign ? 1 : 2),
      );
    }
    const errors = ws.frames.flatMap((f) => (f.type === "frame_error" ? [f.error] : []));
    expect(errors.map((e) => e.code)).toEqual(["invalid_attachment", "invalid_attachment"]);
    expect(errors[0]?.message).toContain(foreign);
    ws.close();
    expect(await messagesOf(id)).toEqual([]);
    const linked = await env.DB.prepare("SELECT message_id FROM artifacts WHERE id = ?")
      .bind(foreign)
      .first<{ message_id: string | null }>();
    expect(linked?.message_id).toBeNull();
  });
});
