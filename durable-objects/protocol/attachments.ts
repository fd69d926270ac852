// Files a user attaches to a message: kept as artifacts of type `attachment` (bytes in R2), named
// by id in a send, and shown in the message as `attachment` parts. Shared with web/.
import { z } from "zod";

/** The artifact type of an uploaded attachment. */
export const ATTACHMENT_ARTIFACT_TYPE = "attachment";
/** Attachments one message may carry. */
export const MAX_ATTACHMENTS_PER_MESSAGE = 10;

/**
 * What the server takes (GET /api/conversations/:id/attachments/limits): the browser refuses a
 * file over `maxBytes` before uploading it, instead of sending it all to hear so.
 */
export const AttachmentLimits = z.object({
  maxBytes: z.number().int().positive(),
  maxFilesPerMessage: z.number().int().positive(),
});
export type AttachmentLimits = z.infer<typeof AttachmentLimits>;

/** How a model is given the file: image, PDF document, plain text, a table, or JSON. */
export const AttachmentKind = z.enum(["image", "pdf", "text", "table", "json"]);
export type AttachmentKind = z.infer<typeof AttachmentKind>;

/** What an attachment is: its display name, the content type found in its bytes, its size. */
export const AttachmentInfo = z.object({
  name: z.string(),
  contentType: z.string(),
  size: z.number().int().min(0),
  kind: AttachmentKind,
});
export type AttachmentInfo = z.infer<typeof AttachmentInfo>;

/** The metadata of an attachment artifact. */
export const AttachmentMetadata = z.object({ attachment: AttachmentInfo });

/** The artifact ids a send carries (each an attachment of the same conversation). */
export const AttachmentIds = z.array(z.string().min(1).max(100)).max(MAX_ATTACHMENTS_PER_MESSAGE, {
  message: `A message carries at most ${MAX_ATTACHMENTS_PER_MESSAGE} attachments.`,
});
