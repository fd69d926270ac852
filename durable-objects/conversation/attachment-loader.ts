// Loads what a turn sends of the user's attachments, newest first: the bytes of images and PDFs
// for models that take them (within what one request may carry; older ones beyond it are named,
// not repeated), the text of text files, and the extracted text of PDFs for models that do not
// read them. Every turn whose history holds them loads them again, all at once.
import type { LoadedAttachment } from "../loop/attachment-parts";
import { ATTACHMENT_ARTIFACT_TYPE } from "../protocol/attachments";
import type { AttachmentPart, ChatMessage } from "../protocol/messages";
import type { AttachmentCapabilities } from "../providers/attachment-capabilities";
import { toBase64 } from "../../shared/base64";
import { pdfText } from "./pdf-text";

const MiB = 1024 * 1024;
/**
 * Image and PDF bytes one model request carries at most: base64 makes them 4/3 larger, and
 * Gemini takes 20 MB of inline data per request (Anthropic 32 MB).
 */
export const MAX_FILE_BYTES_PER_REQUEST = 12 * MiB;
/** Anthropic takes images up to 5 MB; a larger one is named instead. */
const MAX_IMAGE_BYTES = 5 * MiB;
/**
 * Files read from R2 at once (a Worker keeps six connections open; more wait): each read's bytes
 * stay in memory until they are encoded, so a long history's files are not all held at once.
 */
const READS_AT_ONCE = 6;
/** D1 binds at most 100 parameters per statement. */
const IDS_PER_QUERY = 90;
/** The most characters of a text attachment (or a PDF's text) any request carries. */
export const MAX_TEXT_CHARS = 200_000;

/**
 * A PDF's text by its attachment's id, kept by the conversation: extracting it (PDF.js, in the
 * PDF text worker) took every turn that had the PDF in its history. Kept to one character more
 * than any request carries, so a cut is still noticed.
 */
export interface PdfTextCache {
  get(artifactId: string): string | null;
  set(artifactId: string, text: string): void;
  /** The attachment is gone: so is its text. */
  forget(artifactId: string): void;
}

export interface AttachmentLoadInput {
  d1: D1Database;
  bucket: R2Bucket;
  /** workers/pdf-text (the PDF_TEXT binding): the text of PDFs for models that do not read them. */
  pdfTextService: Fetcher;
  conversationId: string;
  history: readonly ChatMessage[];
  can: AttachmentCapabilities;
  maxTextChars: number;
  /** MAX_FILE_BYTES_PER_REQUEST unless set (tests set less). */
  fileBytesPerRequest?: number;
  pdfTexts?: PdfTextCache;
}

export async function loadAttachments(
  input: AttachmentLoadInput,
): Promise<Map<string, LoadedAttachment>> {
  const newestFirst = input.history
    .filter((m) => m.role === "user")
    .reverse()
    .flatMap((m) => m.content.filter((p): p is AttachmentPart => p.type === "attachment"));
  if (newestFirst.length === 0) return new Map();
  const keys = await r2Keys(input.d1, input.conversationId, newestFirst);
  let fileBytesLeft = input.fileBytesPerRequest ?? MAX_FILE_BYTES_PER_REQUEST;
  const takeFile = (part: AttachmentPart) => {
    if (part.size > fileBytesLeft) return false;
    fileBytesLeft -= part.size;
    return true;
  };
  const reading = { ...input, read: readsAtMost(READS_AT_ONCE, input.bucket) };
  const pending = new Map<string, Promise<LoadedAttachment>>();
  for (const part of newestFirst) {
    if (pending.has(part.artifactId)) continue;
    const key = keys.get(part.artifactId);
    if (!key) input.pdfTexts?.forget(part.artifactId);
    // Started in order, not awaited: each load takes its share of the request's file bytes
    // before its first read, so the newest files get the room, and the reads run side by side.
    pending.set(
      part.artifactId,
      key
        ? loadOne(reading, part, key, takeFile).catch((err: unknown) => {
            console.warn("could not load an attachment", part.artifactId, err);
            return { part, unavailable: "(This attachment could not be read.)" };
          })
        : Promise.resolve({ part, unavailable: "(This attachment was deleted.)" }),
    );
  }
  const loaded = new Map<string, LoadedAttachment>();
  for (const [id, load] of pending) loaded.set(id, await load);
  return loaded;
}

/** What a turn's loads share: the input, and R2 reads a few at a time. */
interface Reading extends AttachmentLoadInput {
  read: (key: string, length?: number) => Promise<Uint8Array<ArrayBuffer>>;
}

async function loadOne(
  input: Reading,
  part: AttachmentPart,
  key: string,
  takeFile: (part: AttachmentPart) => boolean,
): Promise<LoadedAttachment> {
  switch (part.kind) {
    case "image":
      if (!input.can.images) return { part };
      if (part.size > MAX_IMAGE_BYTES)
        return { part, unavailable: "(An image too large for the model to see: over 5 MiB.)" };
      if (!takeFile(part))
        return { part, unavailable: "(An image shown earlier in the conversation.)" };
      return { part, base64: toBase64(await input.read(key)) };
    case "pdf": {
      if (input.can.pdfDocuments && takeFile(part))
        return { part, base64: toBase64(await input.read(key)) };
      return { part, text: await textOfPdf(input, part, key) };
    }
    case "text":
    case "table":
    case "json": {
      // Enough bytes for the characters that can be shown (UTF-8 takes at most 4 per character).
      const bytes = await input.read(key, input.maxTextChars * 4 + 4);
      return { part, text: new TextDecoder().decode(bytes).replace(/^\uFEFF/, "") };
    }
  }
}

async function textOfPdf(input: Reading, part: AttachmentPart, key: string): Promise<string> {
  const kept = input.pdfTexts?.get(part.artifactId);
  if (kept != null) return kept;
  const text = await pdfText(input.pdfTextService, await input.read(key));
  input.pdfTexts?.set(part.artifactId, text.slice(0, MAX_TEXT_CHARS + 1));
  return text;
}

async function r2Keys(
  d1: D1Database,
  conversationId: string,
  parts: readonly AttachmentPart[],
): Promise<Map<string, string>> {
  const ids = [...new Set(parts.map((p) => p.artifactId))];
  const keys = new Map<string, string>();
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
    const chunk = ids.slice(i, i + IDS_PER_QUERY);
    const rows = await d1
      .prepare(
        `SELECT id, r2_key FROM artifacts WHERE conversation_id = ? AND type = ? AND r2_key IS NOT NULL AND id IN (${chunk.map(() => "?").join(", ")})`,
      )
      .bind(conversationId, ATTACHMENT_ARTIFACT_TYPE, ...chunk)
      .all<{ id: string; r2_key: string }>();
    for (const row of rows.results) keys.set(row.id, row.r2_key);
  }
  return keys;
}

/** Reads from `bucket`, `limit` at a time: a read that finishes hands its turn to the next. */
function readsAtMost(limit: number, bucket: R2Bucket): Reading["read"] {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (key, length) => {
    if (running < limit) running++;
    else await new Promise<void>((resume) => waiting.push(resume));
    try {
      return await bytesOf(bucket, key, length);
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

async function bytesOf(
  bucket: R2Bucket,
  key: string,
  length?: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const object = await bucket.get(key, length ? { range: { offset: 0, length } } : {});
  if (!object) throw new Error(`attachment bytes missing in R2: ${key}`);
  return new Uint8Array(await object.arrayBuffer());
}
