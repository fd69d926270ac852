// Reading the one file of a multipart/form-data upload. A body whose declared length is already
// over the limit is refused before it is read.
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
  let form: FormData;
  try {
    form = await c.req.raw.formData();
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

/**
 * The last path segment, without control characters or the bidi controls that make
 * "invoice\u202Efdp.exe" read as "invoiceexe.pdf", at most 200 characters.
 */
export function displayName(raw: string): string {
  const base = raw.split(/[/\\]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex -- removing exactly these characters
  const clean = withoutBidiControls(base.replace(/[\u0000-\u001f\u007f]/g, "")).trim();
  return clean.slice(0, MAX_NAME_CHARS) || "attachment";
}
