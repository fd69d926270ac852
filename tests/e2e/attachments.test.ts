// Attachments in Chromium against the real stack (issue 16): an image pasted and a PDF chosen in
// the file picker go with a message, and the model request (Anthropic, OpenAI, Gemini, Ollama)
// carries each provider's own parts for them, and tables, JSON and Markdown as text (as sent,
// through recording pass-throughs: aimock's journal keeps only the text of an Anthropic request
// and of a Responses API one); the message shows them, the artifact pane lists them, they pin
// from the message, and one deleted is marked on its chip; a file over the size limit, dropped on
// the composer, gets a clear refusal and nothing is stored.
import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { TITLE_INSTRUCTION } from "../../durable-objects/conversation/titles";
import { PDF_TEXT, pdfBytes, PNG_BASE64 } from "../support/attachment-files";
import { axeViolations } from "./axe";
import { launchChromium, watchPage } from "./browser";
import { type RecordingProxy, startRecordingProxy } from "./recording-proxy";
import { type Stack, startStack } from "./stack";

const TURN_TIMEOUT = 60_000;
const SCREENSHOTS = "test-results/screenshots";
// Small enough for a test file to pass it; the README's default is 10 MiB.
const MAX_BYTES = 64 * 1024;

vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

let stack: Stack;
let browser: Browser;
let anthropicWire: RecordingProxy;
let openaiWire: RecordingProxy;
let geminiWire: RecordingProxy;
let ollamaWire: RecordingProxy;
beforeAll(async () => {
  anthropicWire = await startRecordingProxy();
  openaiWire = await startRecordingProxy();
  geminiWire = await startRecordingProxy();
  ollamaWire = await startRecordingProxy();
  stack = await startStack((mock) => mock.onMessage(/.*/, { content: "I read both files." }), {
    vars: {
      ATTACHMENT_MAX_BYTES: String(MAX_BYTES),
      ANTHROPIC_BASE_URL: anthropicWire.url,
      // OpenAI as the app calls OpenAI itself: through the Responses API.
      OPENAI_BASE_URL: `${openaiWire.url}/v1`,
      OPENAI_API: "responses",
      GEMINI_API_KEY: "e2e-key",
      GEMINI_BASE_URL: geminiWire.url,
      OLLAMA_BASE_URL: ollamaWire.url,
    },
  });
  for (const wire of [anthropicWire, openaiWire, geminiWire, ollamaWire])
    wire.forwardTo(stack.mock.url);
  browser = await launchChromium();
  mkdirSync(SCREENSHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await anthropicWire?.stop();
  await openaiWire?.stop();
  await geminiWire?.stop();
  await ollamaWire?.stop();
});

async function signedIn(): Promise<Page> {
  // bypassCSP only so that the test can inject axe-core; the app's own scripts are unchanged.
  const context = await browser.newContext({
    viewport: { width: 1400, height: 900 },
    bypassCSP: true,
  });
  const page = await context.newPage();
  await page.goto(`${stack.url}/#token=${stack.token}`);
  return page;
}

async function newConversation(page: Page, provider: string, model?: string): Promise<string> {
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  const form = page.getByRole("form", { name: "New conversation" });
  await form.getByLabel("Provider", { exact: true }).selectOption(provider);
  if (model) await form.getByLabel("Model", { exact: true }).fill(model);
  const before = new URL(page.url()).searchParams.get("c");
  await form.getByRole("button", { name: "Create" }).click();
  await page.waitForURL((url) => ![null, before].includes(url.searchParams.get("c")));
  await page.getByRole("textbox", { name: "Message" }).waitFor();
  return new URL(page.url()).searchParams.get("c")!;
}

/** Pastes an image into the message box, as a screenshot from the clipboard arrives. */
async function pasteImage(page: Page, name: string, base64: string): Promise<void> {
  await page.getByRole("textbox", { name: "Message" }).evaluate(
    (box, file) => {
      const data = new DataTransfer();
      const bytes = Uint8Array.from(atob(file.base64), (ch) => ch.charCodeAt(0));
      data.items.add(new File([bytes], file.name, { type: "image/png" }));
      box.dispatchEvent(
        new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }),
      );
    },
    { name, base64 },
  );
}

/** Drags a file over the composer and drops it there. */
async function dropFile(page: Page, name: string, text: string): Promise<void> {
  await page.locator(".composer-area").evaluate(
    (area, file) => {
      const data = new DataTransfer();
      data.items.add(new File([file.text], file.name, { type: "text/plain" }));
      for (const type of ["dragenter", "dragover", "drop"])
        area.dispatchEvent(
          new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }),
        );
    },
    { name, text },
  );
}

/** Chooses files in the picker the Attach files button opens. */
async function pickFiles(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Attach files" }).click();
  await (await chooser).setFiles(files);
}

const chip = (page: Page, name: string) =>
  page.getByRole("list", { name: "Files for the next message" }).getByRole("listitem").filter({
    hasText: name,
  });

/** The model requests of answers (the automatic title's request left out), newest last. */
function answerRequests(bodies: unknown[]): string[] {
  return bodies.map((b) => JSON.stringify(b)).filter((body) => !body.includes(TITLE_INSTRUCTION));
}
const anthropicSent = () => answerRequests(anthropicWire.requests().map((r) => r.body));
const openaiSent = () => answerRequests(openaiWire.requests().map((r) => r.body));
const geminiSent = () => answerRequests(geminiWire.requests().map((r) => r.body));
const ollamaSent = () => answerRequests(ollamaWire.requests().map((r) => r.body));

async function attachAndSend(page: Page, screenshots = false): Promise<void> {
  await pasteImage(page, "plot.png", PNG_BASE64);
  await pickFiles(page, [
    { name: "trial.pdf", mimeType: "application/pdf", buffer: Buffer.from(pdfBytes()) },
  ]);
  for (const name of ["plot.png", "trial.pdf"])
    await expect
      .poll(() => chip(page, name).textContent(), { timeout: 30_000 })
      .toContain("attached");
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("What do these files show?");
  if (screenshots) {
    await page.screenshot({ path: `${SCREENSHOTS}/attachments-composer.png` });
    expect(await axeViolations(page, "light")).toEqual([]);
  }
  await box.press("Enter");
  await page
    .getByTestId("message-assistant")
    .and(page.locator('[data-status="complete"]'))
    .waitFor({ timeout: TURN_TIMEOUT });
}

it("an image and a PDF reach Anthropic as image and document blocks, show in the message, and pin", async () => {
  const page = await signedIn();
  const watch = watchPage(page, stack.url);
  await newConversation(page, "anthropic");
  const before = anthropicSent().length;
  await attachAndSend(page, true);
  expect(await page.getByRole("list", { name: "Files for the next message" }).count()).toBe(0);

  const request = JSON.parse(anthropicSent().slice(before).at(-1)!) as {
    messages: { role: string; content: unknown }[];
  };
  const parts = request.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []));
  expect(parts).toContainEqual(
    expect.objectContaining({
      type: "image",
      source: expect.objectContaining({
        type: "base64",
        media_type: "image/png",
        data: PNG_BASE64,
      }),
    }),
  );
  expect(parts).toContainEqual(
    expect.objectContaining({
      type: "document",
      source: expect.objectContaining({ type: "base64", media_type: "application/pdf" }),
    }),
  );

  // The sent message shows both: the image as a loaded thumbnail, the PDF by icon and name.
  const files = page.getByTestId("message-user").getByTestId("message-attachment");
  await expect.poll(() => files.count()).toBe(2);
  const thumbnail = files.filter({ hasText: "plot.png" }).locator("img");
  await expect
    .poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBe(1);
  expect(await files.filter({ hasText: "trial.pdf" }).textContent()).toContain("PDF ·");
  const download = files
    .filter({ hasText: "trial.pdf" })
    .getByRole("link", { name: "Download trial.pdf" });
  const file = await page.evaluate(
    async (href) => {
      const res = await fetch(href);
      return { type: res.headers.get("content-type"), start: (await res.text()).slice(0, 5) };
    },
    (await download.getAttribute("href"))!,
  );
  expect(file).toEqual({ type: "application/pdf", start: "%PDF-" });

  // Pinned from the message: the artifact pane lists both, the PDF pinned first.
  const pin = files.getByRole("button", { name: /^Pin(ned)? trial\.pdf$/ });
  await pin.click();
  await expect.poll(() => pin.getAttribute("aria-pressed")).toBe("true");
  expect(await pin.textContent()).toBe("Pinned trial.pdf");
  await page.getByRole("button", { name: /^Artifacts/ }).click();
  const listed = page.getByRole("complementary", { name: "Artifacts" }).locator(".artifact-item");
  await expect
    .poll(() => listed.allTextContents())
    .toEqual([
      expect.stringMatching(/^trial\.pdfPinned · Attached file$/),
      expect.stringMatching(/^plot\.pngAttached file$/),
    ]);
  expect(await page.getByTestId("pinned-note").textContent()).toContain("trial.pdf");
  await page.screenshot({ path: `${SCREENSHOTS}/attachments-message.png` });
  for (const scheme of ["light", "dark"] as const)
    expect(await axeViolations(page, scheme)).toEqual([]);

  // The image deleted (as another tab's artifact pane does): its chip says so, with no thumbnail
  // to load and nothing that would answer 404, and still after a reload.
  const imageId = (await thumbnail.getAttribute("src"))!.split("/")[3]!;
  const deleted = await page.evaluate(
    async (id) => (await fetch(`/api/artifacts/${id}`, { method: "DELETE" })).status,
    imageId,
  );
  expect(deleted).toBe(204);
  const image = () =>
    page.getByTestId("message-user").getByTestId("message-attachment").filter({
      hasText: "plot.png",
    });
  await expect.poll(() => image().textContent()).toContain("plot.png (deleted)");
  expect(await image().locator("img, a, button").count()).toBe(0);
  await page.reload();
  await expect.poll(() => image().textContent()).toContain("plot.png (deleted)");
  expect(await image().locator("img, a, button").count()).toBe(0);
  expect(watch.outside).toEqual([]);
  await page.context().close();
});

it("the same files reach OpenAI's Responses API as an image and a file", async () => {
  const page = await signedIn();
  await newConversation(page, "openai");
  const before = openaiSent().length;
  await attachAndSend(page);
  const sent = openaiSent().slice(before).at(-1)!;
  const request = JSON.parse(sent) as { input: { role?: string; content?: unknown }[] };
  const parts = request.input.flatMap((item) => (Array.isArray(item.content) ? item.content : []));
  expect(parts).toContainEqual(
    expect.objectContaining({
      type: "input_image",
      image_url: `data:image/png;base64,${PNG_BASE64}`,
    }),
  );
  expect(parts).toContainEqual(
    expect.objectContaining({
      type: "input_file",
      filename: "trial.pdf",
      file_data: expect.stringMatching(/^data:application\/pdf;base64,/),
    }),
  );
  expect(sent).not.toContain(PDF_TEXT);
  // Nothing went as text instead, so the turn says nothing of it.
  expect(
    await page.getByTestId("turn-notice").filter({ hasText: "does not read PDF files" }).count(),
  ).toBe(0);
  await page.context().close();
});

it("a model that cannot see gets the image's name and the PDF's text, and the answer says so", async () => {
  const page = await signedIn();
  await newConversation(page, "openai", "gpt-3.5-turbo");
  const before = openaiSent().length;
  await attachAndSend(page);
  await page
    .getByTestId("turn-notice")
    .filter({ hasText: "gpt-3.5-turbo cannot see images: it was given their names only" })
    .filter({ hasText: "does not read PDF files: it was given their extracted text" })
    .waitFor({ timeout: TURN_TIMEOUT });
  const sent = openaiSent().slice(before).at(-1)!;
  expect(sent).toContain("plot.png");
  expect(sent).toContain(PDF_TEXT);
  expect(sent).not.toContain("input_image");
  expect(sent).not.toContain("input_file");
  expect(sent).not.toContain(PNG_BASE64);
  await page.screenshot({ path: `${SCREENSHOTS}/attachments-text-instead.png` });
  await page.context().close();
});

/** A table, JSON and Markdown, which every model reads as text. */
const TEXT_FILES = [
  { name: "doses.csv", mimeType: "text/csv", buffer: Buffer.from("dose,n\n10,4\n") },
  { name: "arms.json", mimeType: "application/json", buffer: Buffer.from('{"arms":2}') },
  { name: "notes.md", mimeType: "text/markdown", buffer: Buffer.from("# Notes\nblinded") },
];

/** The image, the PDF and the text files go with one message; its answer is complete. */
async function attachEveryKindAndSend(page: Page): Promise<void> {
  await pickFiles(page, TEXT_FILES);
  for (const { name } of TEXT_FILES)
    await expect
      .poll(() => chip(page, name).textContent(), { timeout: 30_000 })
      .toContain("attached");
  await attachAndSend(page);
}

function expectTextFilesInline(sent: string): void {
  for (const piece of ["doses.csv (text/csv", "dose,n\\n10,4", "arms.json (application/json"])
    expect(sent).toContain(piece);
  expect(sent).toContain('{\\"arms\\":2}');
  expect(sent).toContain("# Notes\\nblinded");
}

it("Gemini gets the image and the PDF as inline data, and tables, JSON and Markdown as text", async () => {
  const page = await signedIn();
  await newConversation(page, "gemini");
  const before = geminiSent().length;
  await attachEveryKindAndSend(page);
  const sent = geminiSent().slice(before).at(-1)!;
  const request = JSON.parse(sent) as { contents: { parts: unknown[] }[] };
  const parts = request.contents.flatMap((c) => c.parts);
  expect(parts).toContainEqual({ inlineData: { mimeType: "image/png", data: PNG_BASE64 } });
  expect(parts).toContainEqual({
    inlineData: { mimeType: "application/pdf", data: expect.any(String) },
  });
  expect(sent).not.toContain(PDF_TEXT);
  expectTextFilesInline(sent);
  await page.context().close();
});

it("an Ollama vision model gets the image and the PDF's text; tables, JSON and Markdown as text", async () => {
  const page = await signedIn();
  await newConversation(page, "ollama", "llava");
  const before = ollamaSent().length;
  await attachEveryKindAndSend(page);
  const sent = ollamaSent().slice(before).at(-1)!;
  const request = JSON.parse(sent) as { messages: { role: string; images?: string[] }[] };
  expect(request.messages.flatMap((m) => m.images ?? [])).toEqual([PNG_BASE64]);
  expect(sent).toContain(PDF_TEXT);
  expectTextFilesInline(sent);
  await page
    .getByTestId("turn-notice")
    .filter({ hasText: "llava does not read PDF files: it was given their extracted text" })
    .waitFor();
  await page.context().close();
});

it("a file over the size limit, dropped on the composer, gets words naming the limit and is not stored", async () => {
  const page = await signedIn();
  const id = await newConversation(page, "anthropic");
  await dropFile(page, "oversized.txt", "x".repeat(100 * 1024));
  const refusal = chip(page, "oversized.txt").getByRole("alert");
  await expect
    .poll(() => refusal.textContent(), { timeout: 30_000 })
    .toBe(
      "This file (100 KiB) is larger than the 64 KiB an attachment may be. Attach a smaller file, or split it.",
    );
  // A file of a type no model reads is refused for what its bytes are, whatever its name.
  await pickFiles(page, [
    {
      name: "program.txt",
      mimeType: "text/plain",
      buffer: Buffer.from([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 0xff, 0xfe]),
    },
  ]);
  await expect
    .poll(() => chip(page, "program.txt").getByRole("alert").textContent(), { timeout: 30_000 })
    .toMatch(
      /^"program\.txt" is .+, which cannot be attached\. Attach PNG, JPEG, WebP or GIF images, PDF/,
    );

  const stored = await page.evaluate(
    async (url) => ((await (await fetch(url)).json()) as { items: unknown[] }).items,
    `/api/conversations/${id}/artifacts`,
  );
  expect(stored).toEqual([]);
  await page.screenshot({ path: `${SCREENSHOTS}/attachments-refused.png` });
  expect(await axeViolations(page, "dark")).toEqual([]);
  // Removing the refused chips leaves a composer ready for a plain message.
  await chip(page, "oversized.txt").getByRole("button", { name: "Remove oversized.txt" }).click();
  await chip(page, "program.txt").getByRole("button", { name: "Remove program.txt" }).click();
  expect(await page.getByRole("list", { name: "Files for the next message" }).count()).toBe(0);
  await page.context().close();
});
