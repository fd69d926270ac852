// A user's image and PDF reach each provider in its own part types: image and document blocks
// for Anthropic, inline data for Gemini, image and file parts for OpenAI's Responses API (an
// image_url part and the PDF's text on chat completions, which take no files), an
// image and the PDF's text for Ollama's vision models; a text-only model gets text alone. The
// SDKs talk to aimock; the bodies they sent and aimock's journal are the witnesses.
import { beforeAll, describe, expect, it } from "vitest";
import { extractPdfText } from "../../shared/extract-pdf-text";
import { attachmentParts, type LoadedAttachment } from "../loop/attachment-parts";
import { attachmentCapabilitiesOf } from "./attachment-capabilities";
import { recordingFetch, run, textOf } from "./test/harness";
import type { NeutralMessage, ProviderConfig, ProviderId } from "./types";
import { PDF_TEXT, PNG_BASE64, pdfBytes } from "../../tests/support/attachment-fixtures";

const bytesToBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

const image: LoadedAttachment = {
  part: {
    type: "attachment",
    artifactId: "art-image",
    name: "blot.png",
    contentType: "image/png",
    size: 69,
    kind: "image",
  },
  base64: PNG_BASE64,
};

let pdf: LoadedAttachment;
// The first use of unpdf and of each SDK loads (and, under vitest, transforms) big modules.
beforeAll(async () => {
  pdf = await loadedPdf();
}, 120_000);
const SLOW = 90_000;

async function loadedPdf(): Promise<LoadedAttachment> {
  const bytes = pdfBytes();
  return {
    part: {
      type: "attachment",
      artifactId: "art-pdf",
      name: "trial.pdf",
      contentType: "application/pdf",
      size: bytes.length,
      kind: "pdf",
    },
    base64: bytesToBase64(bytes),
    // What the loader extracts for models that do not read PDFs (unpdf, here in workerd).
    text: await extractPdfText(bytes),
  };
}

async function send(provider: ProviderId, model: string, config: Partial<ProviderConfig> = {}) {
  const can = attachmentCapabilitiesOf(provider, model, config.openaiApi);
  const converted = [image, pdf].map((a) => attachmentParts(a, can, 10_000));
  const messages: NeutralMessage[] = [
    {
      role: "user",
      content: [
        { type: "text", text: "case:text What do these files show?" },
        ...converted.flatMap((c) => c.parts),
      ],
    },
  ];
  const wire = recordingFetch();
  const result = await run(
    provider,
    { model, messages },
    { config: { ...config, fetch: wire.fetch } },
  );
  expect(textOf(result.events)).toBe("The quick brown fox jumps over the lazy dog.");
  const journal = await result.requests();
  expect(journal).toHaveLength(1);
  return {
    body: JSON.stringify(wire.bodies[0]),
    sent: wire.bodies[0] as Record<string, unknown>,
    journal: JSON.stringify(journal[0]?.body),
    textInstead: converted.flatMap((c) => c.textInstead ?? []),
  };
}

type Json = Record<string, unknown>;
const lastMessage = (sent: Json, key: string) => (sent[key] as Json[]).at(-1)!;

describe("attachments on the wire", () => {
  it("extracts a PDF's text with unpdf in workerd", () => {
    expect(pdf.text).toContain(PDF_TEXT);
  });

  it(
    "Anthropic: an image block and a document block",
    async () => {
      const { sent, textInstead } = await send("anthropic", "claude-haiku-4-5");
      const blocks = lastMessage(sent, "messages").content as Json[];
      expect(blocks).toContainEqual({
        type: "image",
        source: { type: "base64", media_type: "image/png", data: PNG_BASE64 },
      });
      expect(blocks).toContainEqual(
        expect.objectContaining({
          type: "document",
          title: "trial.pdf",
          source: expect.objectContaining({ type: "base64", media_type: "application/pdf" }),
        }),
      );
      expect(JSON.stringify(blocks)).not.toContain(PDF_TEXT);
      expect(textInstead).toEqual([]);
    },
    SLOW,
  );

  it(
    "Gemini: inline data for the image and for the PDF",
    async () => {
      const { sent, textInstead } = await send("gemini", "gemini-2.5-flash");
      const parts = lastMessage(sent, "contents").parts as Json[];
      expect(parts).toContainEqual({ inlineData: { mimeType: "image/png", data: PNG_BASE64 } });
      expect(parts).toContainEqual({
        inlineData: { mimeType: "application/pdf", data: bytesToBase64(pdfBytes()) },
      });
      expect(textInstead).toEqual([]);
    },
    SLOW,
  );

  it(
    "OpenAI: an image_url part, and the PDF as its extracted text",
    async () => {
      const { sent, journal, textInstead } = await send("openai", "gpt-4o-mini");
      const parts = lastMessage(sent, "messages").content as Json[];
      expect(parts).toContainEqual({
        type: "image_url",
        image_url: { url: `data:image/png;base64,${PNG_BASE64}` },
      });
      const text = parts.filter((p) => p.type === "text").map((p) => p.text as string);
      expect(text.join("\n")).toContain(PDF_TEXT);
      expect(JSON.stringify(parts)).not.toContain("application/pdf;base64");
      expect(journal).toContain(PDF_TEXT);
      expect(textInstead).toEqual(["pdf"]);
    },
    SLOW,
  );

  it(
    "OpenAI through the Responses API (OpenAI's own): an input_image part and the PDF as a file",
    async () => {
      const { sent, textInstead } = await send("openai", "gpt-6-luna", { openaiApi: "responses" });
      const parts = (sent.input as Json[]).at(-1)!.content as Json[];
      expect(parts).toContainEqual({
        type: "input_image",
        detail: "auto",
        image_url: `data:image/png;base64,${PNG_BASE64}`,
      });
      expect(parts).toContainEqual({
        type: "input_file",
        filename: "trial.pdf",
        file_data: `data:application/pdf;base64,${bytesToBase64(pdfBytes())}`,
      });
      expect(JSON.stringify(parts)).not.toContain(PDF_TEXT);
      expect(textInstead).toEqual([]);
    },
    SLOW,
  );

  it(
    "Ollama, a vision model: the image in `images`, the PDF as its text",
    async () => {
      const { sent, journal, textInstead } = await send("ollama", "llava:7b");
      const user = lastMessage(sent, "messages");
      expect(user.images).toEqual([PNG_BASE64]);
      expect(user.content).toContain(PDF_TEXT);
      expect(journal).toContain(PDF_TEXT);
      expect(textInstead).toEqual(["pdf"]);
    },
    SLOW,
  );

  it(
    "Ollama, a text-only model: no image, the file named instead, and the PDF as text",
    async () => {
      const { sent, body, textInstead } = await send("ollama", "llama3.2:latest");
      const user = lastMessage(sent, "messages");
      expect(user.images).toBeUndefined();
      expect(body).not.toContain(PNG_BASE64);
      expect(user.content).toContain("blot.png");
      expect(user.content).toContain("cannot see images");
      expect(user.content).toContain(PDF_TEXT);
      expect(textInstead).toEqual(["image", "pdf"]);
    },
    SLOW,
  );
});
