// Serving artifact bytes so that a browser never runs them: attachment, nosniff, sandbox CSP.
import { contentDisposition } from "./http/content-disposition";
import { z } from "zod";
import type { artifacts } from "../../../shared/db/schema";
import { languageExtension, safeFileName } from "../../../durable-objects/protocol/file-names";
import { mediaTypeOr } from "../../../shared/media-type";
import { notFound } from "./http/errors";
import { ATTACHMENT_ARTIFACT_TYPE } from "../../../durable-objects/protocol/attachments";

type Row = typeof artifacts.$inferSelect;

// Extensions for the download file name, by artifact type or content type.
const EXTENSIONS: Record<string, string> = {
  "text/markdown": "md",
  "application/json": "json",
  "application/vnd.knowledge-graph": "json",
  "application/vnd.bibliography": "json",
  "text/html": "html.txt",
  "image/svg+xml": "svg",
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "application/pdf": "pdf",
  "audio/mpeg": "mp3",
  "audio/mp3": "mp3",
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/wave": "wav",
  "audio/ogg": "ogg",
  "audio/webm": "webm",
  "audio/mp4": "m4a",
  "audio/aac": "aac",
  "audio/flac": "flac",
  "text/csv": "csv",
};
const ownExtension = (row: Pick<Row, "title" | "type">) =>
  row.type === ATTACHMENT_ARTIFACT_TYPE ? /\.([A-Za-z0-9]{1,8})$/.exec(row.title)?.[1] : undefined;

export function fileNameFor(
  row: Pick<Row, "title" | "type" | "language" | "contentType" | "r2Key">,
): string {
  const ext =
    languageExtension(row.language) ||
    EXTENSIONS[row.type] ||
    (row.contentType && EXTENSIONS[row.contentType]) ||
    // A file the user attached keeps its own extension; other bytes of a type we have no name
    // for are no text file (".txt" would open them as garbage), and a tool's title is not
    // trusted to choose an extension.
    (row.r2Key ? (ownExtension(row) ?? "bin") : "txt");
  return safeFileName(row.title, ext);
}

// Types a browser may render inline from our origin; SVG is excluded (scripts), HTML too.
const INLINE_SAFE = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
// PDFs show inline only when asked (`?inline=1`, a preview): the browser's own viewer runs them.
const INLINE_ON_REQUEST = new Set([...INLINE_SAFE, "application/pdf"]);

/** The download routes' query: how the browser should treat the bytes. */
export const DownloadQuery = z.object({
  attachment: z
    .string()
    .optional()
    .transform((v) => v !== undefined)
    .describe("Present (any value): download, even an image that would display inline."),
  inline: z
    .string()
    .optional()
    .transform((v) => v === "1")
    .describe("`1`: show a PDF inline too (a preview), unless `attachment` is present."),
});

export async function downloadResponse(
  bucket: R2Bucket,
  row: Row,
  asAttachment: boolean,
  inlineRequested = false,
): Promise<Response> {
  // A stored type came from a tool or an upload: one a header cannot carry is not repeated.
  const contentType = mediaTypeOr(
    row.contentType,
    row.r2Key ? "application/octet-stream" : "text/plain; charset=utf-8",
  );
  const mediaType = contentType.split(";")[0]!.trim().toLowerCase();
  const inline =
    !asAttachment &&
    (INLINE_SAFE.has(mediaType) || (inlineRequested && INLINE_ON_REQUEST.has(mediaType)));
  const headers = new Headers({
    "Content-Type": inline ? mediaType : contentType,
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy":
      "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox",
    "Cache-Control": "private, max-age=0",
  });
  const name = fileNameFor(row);
  headers.set("Content-Disposition", contentDisposition(inline ? "inline" : "attachment", name));
  if (row.r2Key) {
    const object = await bucket.get(row.r2Key);
    if (!object) throw notFound("Artifact content");
    headers.set("Content-Length", String(object.size));
    return new Response(object.body, { headers });
  }
  return new Response(row.content ?? "", { headers });
}
