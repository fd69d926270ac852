// Reading the one file of a multipart/form-data upload. A body whose declared length is already
// over the limit is refused before it is read; one that declares none (chunked) or understates it
// is read only up to the limit, and refused there: an oversized file is never taken in whole.
import type { Context } from "hono";
import { withoutBidiControls } from "../../../../durable-objects/protocol/display-text";
import { ApiError } from "../http/errors";
import { tooLarge } from "./limit-errors";

/** Room for the multipart boundaries and headers around the file itself. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
const MAX_NAME_CHARS = 200;

export interface UploadedFile {
  /** The display name: the file name the client sent, without any folder. */
  name: string;
  bytes: Uint8Array;
}

export async function readUploadedFile(c: Context, maxBytes: number): Promise<UploadedFile> {
  const type = c.req.header("content-type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data"))
    throw new ApiError(
      415,
      "unsupported_media_type",
      "Send the file as multipart/form-data, in one field named 'file'.",
    );
  const declared = Number(c.req.header("content-length") ?? "0");
  if (declared > maxBytes + MULTIPART_OVERHEAD_BYTES) throw tooLarge(null, maxBytes);
  const body = await bodyWithin(c.req.raw, maxBytes + MULTIPART_OVERHEAD_BYTES);
  if (body === null) throw tooLarge(null, maxBytes);
  let form: FormData;
  try {
    form = await new Response(body, { headers: { "content-type": type } }).formData();
  } catch {
    throw new ApiError(400, "bad_request", "The multipart body could not be read.");
  }
  const files = form.getAll("file");
  const file = files[0];
  if (files.length !== 1 || !file || typeof file === "string")
    throw new ApiError(
      400,
      "bad_request",
      "Send exactly one file, in a form field named 'file' (with its file name).",
    );
  const name = displayName(file.name);
  // Nothing a model could read, and most likely a file the client failed to read itself.
  if (file.size === 0)
    throw new ApiError(
      400,
      "bad_request",
      `'${name}' is empty: attach a file with something in it.`,
    );
  return { name, bytes: new Uint8Array(await file.arrayBuffer()) };
}

/** The body's bytes, or null as soon as it passes `limit` (the rest is never read). */
async function bodyWithin(
  request: Request,
  limit: number,
): Promise<Uint8Array<ArrayBuffer> | null> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > limit) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/**
 * The last path segment, without control characters or bidirectional overrides (which could
 * show a name backwards), at most 200 characters. Browsers send a name's `"`, CR and LF as %22,
 * %0D and %0A (the HTML form encoding): they are read back.
 */
export function displayName(raw: string): string {
  const unescaped = raw.replace(/%(22|0D|0A)/gi, (code) =>
    String.fromCharCode(parseInt(code.slice(1), 16)),
  );
  const base = unescaped.split(/[/\\]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex -- removing exactly these characters
  const clean = withoutBidiControls(base.replace(/[\u0000-\u001f\u007f]/g, "")).trim();
  return clean.slice(0, MAX_NAME_CHARS) || "attachment";
}
