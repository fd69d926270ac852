// POST /api/conversations/:id/attachments: a file for the next message, kept as an artifact of
// the conversation (type `attachment`). Its type is found in its bytes (attachments/sniff.ts);
// a file over the size limit, past the user's quota or of another type is refused, and then
// nothing is stored.
import { Hono } from "hono";
import {
  type AttachmentInfo,
  type AttachmentLimits,
  MAX_ATTACHMENTS_PER_MESSAGE,
} from "../../../../durable-objects/protocol/attachments";
import type { AppEnv } from "../app-types";
import { attachmentLimits } from "../attachments/limits";
import { overQuota, tooLarge } from "../attachments/limit-errors";
import { readUploadedFile } from "../attachments/read-upload";
import { sniffAttachment } from "../attachments/sniff";
import { attachmentBytesOf, storeAttachment } from "../attachments/store-attachment";
import { artifactOfConversation, toArtifact } from "../db/artifacts";
import { conversationFor } from "../db/conversation-access";
import { ApiError } from "../http/errors";
import { parseParam } from "../http/validate";
import { IdParam } from "./conversations";

const ACCEPTED =
  "PNG, JPEG, WebP or GIF images, PDF, or UTF-8 text (plain, Markdown, CSV, TSV, JSON)";

export const attachmentRoutes = new Hono<AppEnv>()
  // What a file may be, so the browser refuses one too large before sending it all.
  .get("/:id/attachments/limits", async (c) => {
    const conversationId = parseParam(c, "id", IdParam);
    await conversationFor(c.get("db"), c.get("user").id, conversationId, "write");
    const limits: AttachmentLimits = {
      maxBytes: attachmentLimits(c.env).maxBytes,
      maxFilesPerMessage: MAX_ATTACHMENTS_PER_MESSAGE,
    };
    return c.json(limits);
  })
  .post("/:id/attachments", async (c) => {
    const conversationId = parseParam(c, "id", IdParam);
    const user = c.get("user");
    // A participant may attach files as they may send; a viewer may not.
    const { row } = await conversationFor(c.get("db"), user.id, conversationId, "write");
    // Files count toward the quota of whoever owns the conversation (deleting it makes room
    // again), a participant's too.
    const owner = row.userId;
    const whose = owner === user.id ? "yours" : "owner";
    const limits = attachmentLimits(c.env);
    const { name, bytes } = await readUploadedFile(c, limits.maxBytes);
    if (bytes.length > limits.maxBytes) throw tooLarge(bytes.length, limits.maxBytes);
    const sniffed = sniffAttachment(bytes, name);
    if (!sniffed.accepted)
      throw new ApiError(
        415,
        "unsupported_media_type",
        `"${name}" is ${sniffed.detected}, which cannot be attached. Attach ${ACCEPTED}.`,
        { detected: sniffed.detected },
      );
    const used = await attachmentBytesOf(c.env.DB, owner);
    if (used + bytes.length > limits.quotaBytes)
      throw overQuota(bytes.length, used, limits.quotaBytes, whose);
    const info: AttachmentInfo = {
      name,
      contentType: sniffed.contentType,
      size: bytes.length,
      kind: sniffed.kind,
    };
    const id = await storeAttachment({
      d1: c.env.DB,
      bucket: c.env.ARTIFACTS,
      userId: owner,
      conversationId,
      info,
      bytes,
      quotaBytes: limits.quotaBytes,
    });
    // Another upload took the room between the check and the insert.
    if (!id) {
      const now = await attachmentBytesOf(c.env.DB, owner);
      throw overQuota(bytes.length, now, limits.quotaBytes, whose);
    }
    const stored = await artifactOfConversation(c.get("db"), conversationId, id);
    return c.json({ artifact: toArtifact(stored) }, 201);
  });
