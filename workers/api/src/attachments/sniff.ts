// What an uploaded file is, decided from its bytes: image and PDF magic numbers first, then UTF-8
// text, which its name and a parse make Markdown, CSV/TSV or JSON. The name alone never decides:
// a PNG named `paper.pdf` is an image, and a `data.json` that does not parse is plain text.
import type { AttachmentKind } from "../../../../durable-objects/protocol/attachments";
import { rasterImageType } from "../../../../shared/media-type";

export type Sniffed =
  | { accepted: true; contentType: string; kind: AttachmentKind }
  /** `detected` names what the bytes look like, for the refusal. */
  | { accepted: false; detected: string };

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  signature.every((b, i) => bytes[at + i] === b);
const ascii = (text: string) => [...text].map((ch) => ch.charCodeAt(0));

// Formats we refuse, recognised so the refusal can say what the file is.
const REFUSED: Array<{ detected: string; matches: (b: Uint8Array) => boolean }> = [
  { detected: "application/zip", matches: (b) => startsWith(b, [0x50, 0x4b, 0x03, 0x04]) },
  { detected: "application/gzip", matches: (b) => startsWith(b, [0x1f, 0x8b]) },
  { detected: "application/x-7z-compressed", matches: (b) => startsWith(b, ascii("7z\xbc\xaf")) },
  { detected: "application/x-rar-compressed", matches: (b) => startsWith(b, ascii("Rar!")) },
  { detected: "application/x-executable", matches: (b) => startsWith(b, ascii("\x7fELF")) },
  { detected: "application/x-msdownload", matches: (b) => startsWith(b, ascii("MZ")) },
  { detected: "image/bmp", matches: (b) => startsWith(b, ascii("BM")) },
  {
    detected: "image/tiff",
    matches: (b) => startsWith(b, ascii("II*\0")) || startsWith(b, ascii("MM\0*")),
  },
  {
    detected: "image/heic",
    matches: (b) => startsWith(b, ascii("ftyp"), 4) && startsWith(b, ascii("hei"), 8),
  },
  { detected: "video/mp4", matches: (b) => startsWith(b, ascii("ftyp"), 4) },
  { detected: "audio/mpeg", matches: (b) => startsWith(b, ascii("ID3")) },
  { detected: "audio/wav", matches: (b) => startsWith(b, ascii("RIFF")) },
  { detected: "audio/ogg", matches: (b) => startsWith(b, ascii("OggS")) },
];

/** A PDF's header may follow a little junk (readers look in the first 1024 bytes). */
function isPdf(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 1024);
  const marker = ascii("%PDF-");
  for (let i = 0; i + marker.length <= head.length; i++)
    if (startsWith(head, marker, i)) return true;
  return false;
}

export function sniffAttachment(bytes: Uint8Array, name: string): Sniffed {
  const image = rasterImageType(bytes);
  if (image) return { accepted: true, contentType: image, kind: "image" };
  if (isPdf(bytes)) return { accepted: true, contentType: "application/pdf", kind: "pdf" };
  const refused = REFUSED.find((r) => r.matches(bytes));
  if (refused) return { accepted: false, detected: refused.detected };
  const text = utf8Text(bytes);
  if (text === null) return { accepted: false, detected: "application/octet-stream" };
  return { accepted: true, ...textType(text, extensionOf(name)) };
}

/** The text of valid UTF-8 without control characters (other than tab, newlines, form feed). */
function utf8Text(bytes: Uint8Array): string | null {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  // eslint-disable-next-line no-control-regex -- looking for exactly these characters
  return /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text) ? null : text;
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot < 0 ? "" : name.slice(dot + 1).toLowerCase();
}

function textType(text: string, extension: string): { contentType: string; kind: AttachmentKind } {
  if (extension === "json" && parsesAsJson(text))
    return { contentType: "application/json", kind: "json" };
  if (extension === "csv" && isTable(text, ",")) return { contentType: "text/csv", kind: "table" };
  if (extension === "tsv" && isTable(text, "\t"))
    return { contentType: "text/tab-separated-values", kind: "table" };
  if (extension === "md" || extension === "markdown")
    return { contentType: "text/markdown", kind: "text" };
  return { contentType: "text/plain", kind: "text" };
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text.replace(/^\uFEFF/, ""));
    return true;
  } catch {
    return false;
  }
}

/**
 * A table: at least one row, and the first rows (up to 50) all have the header's number of
 * fields, counted outside quotes. A quoted field spanning lines is rare enough to read as text.
 */
function isTable(text: string, separator: string): boolean {
  const rows = text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .filter((line) => line.trim() !== "")
    .slice(0, 50);
  const first = rows[0];
  if (!first) return false;
  const width = fieldCount(first, separator);
  return rows.every((row) => fieldCount(row, separator) === width);
}

function fieldCount(line: string, separator: string): number {
  let count = 1;
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === separator && !quoted) count++;
  }
  return count;
}
