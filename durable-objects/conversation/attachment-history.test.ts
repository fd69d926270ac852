// What a turn makes of the attachments in its history, with the real R2 and D1: the bytes for
// models that take images and PDFs, the PDF's text for those that do not (and a notice, once),
// and older files beyond what one request carries named instead of repeated.
import { env, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import {
  attach,
  PDF_TEXT,
  pdfBytes,
  PNG_BASE64,
  pngBytes,
} from "../../tests/support/attachment-fixtures";
import { createConversation, createUser, type TestUser } from "../../tests/support/helpers";
import type { AttachmentPart, ChatMessage } from "../protocol/messages";
import type { NewServerEvent } from "../protocol/wire";
import type { ProviderId } from "../providers/types";
import { attachmentConverter } from "./attachment-history";
import { AuditLog } from "./audit-log";
import { checkpointable } from "./loop-storage";
import type { Conversation } from "./conversation";
import { loadAttachments } from "./attachment-loader";
import { pdfTextCache } from "./history-options";
import { ConversationStore } from "./store";

let user: TestUser;
beforeAll(async () => {
  user = await createUser();
});

function userMessage(seq: number, parts: AttachmentPart[]): ChatMessage {
  return {
    id: crypto.randomUUID(),
    role: "user",
    content: [{ type: "text", text: "What is this?" }, ...parts],
    status: "complete",
    seq,
    createdAt: Date.now(),
  };
}

async function attachmentPart(
  conversationId: string,
  name: string,
  bytes: Uint8Array<ArrayBuffer>,
) {
  const id = await attach(user, conversationId, name, bytes);
  const row = await env.DB.prepare("SELECT metadata FROM artifacts WHERE id = ?")
    .bind(id)
    .first<{ metadata: string }>();
  const { attachment } = JSON.parse(row!.metadata) as {
    attachment: Omit<AttachmentPart, "type" | "artifactId">;
  };
  return { type: "attachment" as const, artifactId: id, ...attachment };
}

async function convert(
  conversationId: string,
  provider: ProviderId,
  model: string,
  history: ChatMessage[],
  settings: Partial<typeof env> = {},
) {
  const notices: NewServerEvent[] = [];
  const toParts = await attachmentConverter({
    env: { ...env, ...settings },
    conversation: {
      id: conversationId,
      userId: user.id,
      provider,
      model,
      mode: "normal",
      settings: {},
    },
    history,
    emit: (e) => notices.push(e),
    announce: true,
  });
  return { toParts, notices };
}

describe("attachments in a turn's history", () => {
  it("gives Anthropic the image and PDF bytes from R2, and tells the user nothing", async () => {
    const { id } = await createConversation(user);
    const image = await attachmentPart(id, "blot.png", pngBytes());
    const paper = await attachmentPart(id, "paper.pdf", pdfBytes());
    const { toParts, notices } = await convert(id, "anthropic", "claude-haiku-4-5", [
      userMessage(1, [image, paper]),
    ]);
    expect(toParts(image)).toContainEqual({
      type: "image",
      mediaType: "image/png",
      data: PNG_BASE64,
    });
    expect(toParts(paper)).toContainEqual(
      expect.objectContaining({
        type: "document",
        mediaType: "application/pdf",
        name: "paper.pdf",
      }),
    );
    expect(notices).toEqual([]);
  }, 60_000);

  it("gives OpenAI the PDF as a file through its Responses API, and its text on chat completions", async () => {
    const { id } = await createConversation(user);
    const paper = await attachmentPart(id, "paper.pdf", pdfBytes());
    const history = [userMessage(1, [paper])];
    // OPENAI_BASE_URL names the test's mock, an OpenAI-compatible server: chat completions.
    const responses = await convert(id, "openai", "gpt-6-luna", history, {
      OPENAI_API: "responses",
    });
    expect(responses.toParts(paper)).toContainEqual(
      expect.objectContaining({ type: "document", name: "paper.pdf" }),
    );
    expect(responses.notices).toEqual([]);

    const chat = await convert(id, "openai", "gpt-6-luna", history);
    expect(JSON.stringify(chat.toParts(paper))).toContain(PDF_TEXT);
    expect(chat.notices).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/does not read PDF files/) }),
    ]);
  }, 60_000);

  it("gives a text-only model the PDF's text and the image's name, and says so once", async () => {
    const { id } = await createConversation(user);
    const image = await attachmentPart(id, "blot.png", pngBytes());
    const paper = await attachmentPart(id, "paper.pdf", pdfBytes());
    const { toParts, notices } = await convert(id, "ollama", "llama3.2:latest", [
      userMessage(1, [image, paper]),
    ]);
    expect(JSON.stringify(toParts(paper))).toContain(PDF_TEXT);
    expect(toParts(image)).toEqual([
      expect.objectContaining({ type: "text", text: expect.stringContaining("cannot see images") }),
    ]);
    expect(notices).toEqual([
      {
        type: "notice",
        level: "info",
        message: expect.stringMatching(
          /llama3\.2:latest cannot see images.*does not read PDF files/,
        ),
      },
    ]);
  }, 60_000);

  it("extracts a PDF's text once per conversation, and forgets it with the attachment", async () => {
    const { id } = await createConversation(user);
    const paper = await attachmentPart(id, "paper.pdf", pdfBytes());
    let asked = 0;
    const service = {
      fetch: (...args: Parameters<Fetcher["fetch"]>) => {
        asked++;
        return env.PDF_TEXT.fetch(...args);
      },
    } as Fetcher;
    const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(id));
    const texts = await runInDurableObject(stub, async (_instance: Conversation, state) => {
      const pdfTexts = pdfTextCache(new ConversationStore(state.storage.sql));
      const load = async () =>
        (
          await loadAttachments({
            d1: env.DB,
            bucket: env.ARTIFACTS,
            pdfTextService: service,
            conversationId: id,
            history: [userMessage(1, [paper])],
            can: { images: false, pdfDocuments: false },
            maxTextChars: 1000,
            pdfTexts,
          })
        ).get(paper.artifactId);
      const turns = [await load(), await load()];
      await env.DB.prepare("DELETE FROM artifacts WHERE id = ?").bind(paper.artifactId).run();
      const deleted = await load();
      return { turns, deleted, left: pdfTexts.get(paper.artifactId) };
    });
    expect(asked).toBe(1);
    expect(texts.turns[0]?.text).toContain(PDF_TEXT);
    expect(texts.turns[1]?.text).toBe(texts.turns[0]?.text);
    expect(texts.deleted?.unavailable).toBe("(This attachment was deleted.)");
    expect(texts.left).toBeNull();
  });

  it("names a deleted attachment instead of failing the turn", async () => {
    const { id } = await createConversation(user);
    const image = await attachmentPart(id, "blot.png", pngBytes());
    await env.DB.prepare("DELETE FROM artifacts WHERE id = ?").bind(image.artifactId).run();
    const { toParts } = await convert(id, "anthropic", "claude-haiku-4-5", [
      userMessage(1, [image]),
    ]);
    expect(toParts(image)).toEqual([
      { type: "text", text: expect.stringContaining("(This attachment was deleted.)") },
    ]);
  });

  it("sends the newest files within what one request carries, and names the older ones", async () => {
    const { id } = await createConversation(user);
    const older = await attachmentPart(id, "first.png", pngBytes());
    const newer = await attachmentPart(id, "second.png", pngBytes());
    const loaded = await loadAttachments({
      d1: env.DB,
      bucket: env.ARTIFACTS,
      pdfTextService: env.PDF_TEXT,
      conversationId: id,
      history: [userMessage(1, [older]), userMessage(3, [newer])],
      can: { images: true, pdfDocuments: true },
      maxTextChars: 1000,
      fileBytesPerRequest: pngBytes().length,
    });
    expect(loaded.get(newer.artifactId)?.base64).toBe(PNG_BASE64);
    expect(loaded.get(older.artifactId)).toEqual({
      part: older,
      unavailable: "(An image shown earlier in the conversation.)",
    });
  });

  it("reads a turn's attachments from R2 side by side, six at most at once", async () => {
    const { id } = await createConversation(user);
    const images = [];
    for (let i = 0; i < 8; i++) images.push(await attachmentPart(id, `${i}.png`, pngBytes()));
    let reading = 0;
    let mostAtOnce = 0;
    const bucket = {
      get: async (...args: Parameters<R2Bucket["get"]>) => {
        mostAtOnce = Math.max(mostAtOnce, ++reading);
        try {
          return await env.ARTIFACTS.get(...args);
        } finally {
          reading--;
        }
      },
    } as R2Bucket;
    const loaded = await loadAttachments({
      d1: env.DB,
      bucket,
      pdfTextService: env.PDF_TEXT,
      conversationId: id,
      history: [userMessage(1, images)],
      can: { images: true, pdfDocuments: true },
      maxTextChars: 1000,
    });
    expect(mostAtOnce).toBe(6);
    for (const image of images) expect(loaded.get(image.artifactId)?.base64).toBe(PNG_BASE64);
  });

  it("gives the model a large image's bytes exactly", async () => {
    const { id } = await createConversation(user);
    // Past 32 KiB, where an encoder working in slices would join them.
    const bytes = new Uint8Array(100_003);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 256;
    bytes.set(pngBytes().subarray(0, 8));
    const image = await attachmentPart(id, "large.png", bytes);
    const loaded = await loadAttachments({
      d1: env.DB,
      bucket: env.ARTIFACTS,
      pdfTextService: env.PDF_TEXT,
      conversationId: id,
      history: [userMessage(1, [image])],
      can: { images: true, pdfDocuments: true },
      maxTextChars: 1000,
    });
    const base64 = loaded.get(image.artifactId)?.base64 ?? "";
    expect(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))).toEqual(bytes);
  });

  it("keeps a full audit entry of a request with a large image small: its bytes as their size", async () => {
    const { id } = await createConversation(user);
    const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(id));
    const big = "A".repeat(3 * 1024 * 1024);
    const entries = await runInDurableObject(stub, (instance: Conversation) => {
      const audit = new AuditLog(instance.store.sql, true);
      audit.modelRequest("turn-1", 1, "anthropic", {
        model: "claude-haiku-4-5",
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "What is this?" },
              { type: "image", mediaType: "image/png", data: big },
              { type: "document", mediaType: "application/pdf", data: big, name: "a.pdf" },
            ],
          },
        ],
      });
      return audit.jsonLines();
    });
    expect(entries.length).toBeLessThan(10_000);
    expect(entries).toContain("What is this?");
    expect(entries).toContain(`[${big.length} base64 characters]`);
  });

  it("keeps the bytes of images and PDFs out of a step's checkpoint (a row holds 2 MB at most)", () => {
    const big = "A".repeat(3 * 1024 * 1024);
    const state = checkpointable({
      step: 1,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What is this?" },
            { type: "image", mediaType: "image/png", data: big },
            { type: "document", mediaType: "application/pdf", data: big, name: "a.pdf" },
          ],
        },
      ],
      shown: [],
      artifactParts: [],
      graphs: [],
      noProgressSteps: 0,
      formatterRepairs: 0,
    });
    expect(JSON.stringify(state).length).toBeLessThan(10_000);
    expect(state.messages[0]?.content).toEqual([
      { type: "text", text: "What is this?" },
      { type: "text", text: "[image omitted after a restart]" },
      { type: "text", text: "[PDF omitted after a restart]" },
    ]);
  });
});
