// Uploads one file for the next message (POST /api/conversations/:id/attachments). Through
// XMLHttpRequest, not fetch: only it reports upload progress, which the file's chip shows.
import { z } from "zod";
import { AttachmentLimits } from "../../../../durable-objects/protocol/attachments";
import { Artifact } from "../../../../durable-objects/protocol/rest";
import { ApiFailure, apiRequest, conversationCreatedOrMissing } from "../../api";
import { formatBytes } from "../../../../durable-objects/protocol/format-bytes";

/** Called with the share of the file sent so far, 0 to 1. */
export type UploadProgress = (fraction: number) => void;

/** Uploads a file and resolves with its artifact; rejects with an ApiFailure a person can read. */
export type AttachmentUploader = (
  file: File,
  onProgress: UploadProgress,
  signal: AbortSignal,
) => Promise<Artifact>;

const Created = z.object({ artifact: Artifact });
const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

/** The refusal as the server worded it, or words of our own when the body is not the API's. */
export function uploadFailure(status: number, body: string): ApiFailure {
  let json: unknown = null;
  try {
    json = JSON.parse(body);
  } catch {
    // Not JSON: a proxy or the platform answered, not our API.
  }
  const parsed = ErrorBody.safeParse(json);
  if (parsed.success)
    return new ApiFailure(status, parsed.data.error.code, parsed.data.error.message);
  if (status === 401)
    return new ApiFailure(401, "unauthorized", "Your session has ended; sign in again.");
  if (status === 413)
    return new ApiFailure(
      413,
      "payload_too_large",
      "This file is too large to upload. Attach a smaller file.",
    );
  return new ApiFailure(
    status,
    "http_error",
    `The upload failed (${status}). Try attaching the file again.`,
  );
}

/** The answer to a finished upload: the artifact, or the failure. */
export function uploadResult(status: number, body: string): Artifact {
  if (status < 200 || status >= 300) throw uploadFailure(status, body);
  const parsed = Created.safeParse(JSON.parse(body));
  if (!parsed.success)
    throw new ApiFailure(status, "bad_answer", "The server sent an answer this page cannot read.");
  return parsed.data.artifact;
}

export const UPLOAD_ABORTED = "upload_aborted";

export function attachmentUploader(conversationId: string): AttachmentUploader {
  const url = `/api/conversations/${encodeURIComponent(conversationId)}/attachments`;
  const upload: AttachmentUploader = (file, onProgress, signal) =>
    new Promise<Artifact>((resolve, reject) => {
      if (signal.aborted)
        return reject(new ApiFailure(0, UPLOAD_ABORTED, "The upload was stopped."));
      const xhr = new XMLHttpRequest();
      xhr.open("POST", url);
      xhr.upload.addEventListener("progress", (e) => {
        if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
      });
      xhr.addEventListener("load", () => {
        try {
          resolve(uploadResult(xhr.status, xhr.responseText));
        } catch (err) {
          reject(err);
        }
      });
      xhr.addEventListener("error", () =>
        reject(
          new ApiFailure(
            0,
            "network",
            "Could not reach the server; check the connection and attach the file again.",
          ),
        ),
      );
      xhr.addEventListener("abort", () =>
        reject(new ApiFailure(0, UPLOAD_ABORTED, "The upload was stopped.")),
      );
      signal.addEventListener("abort", () => xhr.abort(), { once: true });
      const form = new FormData();
      form.set("file", file, file.name);
      xhr.send(form);
    });
  // A conversation still being created by its socket takes files once it exists. A file over
  // the limit is refused here: the browser would send all of it before hearing the server's 413.
  return async (file, onProgress, signal) => {
    await conversationCreatedOrMissing(conversationId);
    const limits = await limitsOf(conversationId);
    if (limits && file.size > limits.maxBytes) throw tooLarge(file.size, limits.maxBytes);
    return upload(file, onProgress, signal);
  };
}

/** The refusal of a file over the limit, in the server's words. */
export const tooLarge = (size: number, maxBytes: number) =>
  new ApiFailure(
    413,
    "payload_too_large",
    `This file (${formatBytes(size)}) is larger than the ${formatBytes(maxBytes)} an attachment may be. Attach a smaller file, or split it.`,
  );

const limits = new Map<string, Promise<AttachmentLimits | null>>();

/** The server's limits, asked once per conversation; null when unknown (the server decides). */
function limitsOf(conversationId: string): Promise<AttachmentLimits | null> {
  let known = limits.get(conversationId);
  if (!known) {
    known = apiRequest(
      AttachmentLimits,
      `/api/conversations/${encodeURIComponent(conversationId)}/attachments/limits`,
    ).catch(() => {
      limits.delete(conversationId);
      return null;
    });
    limits.set(conversationId, known);
  }
  return known;
}
