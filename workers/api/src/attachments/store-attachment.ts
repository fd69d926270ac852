// Keeping an accepted file: bytes in R2 under a key we generate, the artifact row in D1. The row
// is inserted only while the user's attachments still fit their quota (one statement, so two
// uploads at once cannot both squeeze in); when it is not, the R2 object is removed again.
import {
  ATTACHMENT_ARTIFACT_TYPE,
  type AttachmentInfo,
} from "../../../../durable-objects/protocol/attachments";
import { r2Prefix } from "../conversation-lifecycle";

export const attachmentKey = (conversationId: string, artifactId: string) =>
  `${r2Prefix(conversationId)}attachments/${artifactId}`;

/** Bytes the user's attachments take, in every conversation of theirs. */
export async function attachmentBytesOf(d1: D1Database, userId: string): Promise<number> {
  const row = await d1
    .prepare(
      `SELECT coalesce(sum(a.size), 0) AS used FROM artifacts a
       JOIN conversations c ON c.id = a.conversation_id
       WHERE c.user_id = ? AND a.type = ?`,
    )
    .bind(userId, ATTACHMENT_ARTIFACT_TYPE)
    .first<{ used: number }>();
  return row?.used ?? 0;
}

export interface StoreAttachmentInput {
  d1: D1Database;
  bucket: R2Bucket;
  userId: string;
  conversationId: string;
  info: AttachmentInfo;
  bytes: Uint8Array;
  quotaBytes: number;
}

/** The new artifact's id, or null when the quota was reached meanwhile (nothing is kept). */
export async function storeAttachment(input: StoreAttachmentInput): Promise<string | null> {
  const { d1, info } = input;
  const id = crypto.randomUUID();
  const key = attachmentKey(input.conversationId, id);
  await input.bucket.put(key, input.bytes, { httpMetadata: { contentType: info.contentType } });
  const now = Date.now();
  try {
    const result = await d1
      .prepare(
        `INSERT INTO artifacts
           (id, conversation_id, type, title, r2_key, content_type, size, metadata, position, created_at, updated_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8,
           coalesce((SELECT max(position) FROM artifacts WHERE conversation_id = ?2), 0) + 1, ?9, ?9
         WHERE (SELECT coalesce(sum(a.size), 0) FROM artifacts a
                JOIN conversations c ON c.id = a.conversation_id
                WHERE c.user_id = ?10 AND a.type = ?3) + ?7 <= ?11`,
      )
      .bind(
        id,
        input.conversationId,
        ATTACHMENT_ARTIFACT_TYPE,
        info.name,
        key,
        info.contentType,
        info.size,
        JSON.stringify({ attachment: info }),
        now,
        input.userId,
        input.quotaBytes,
      )
      .run();
    if (result.meta.changes === 1) return id;
  } catch (err) {
    await input.bucket.delete(key);
    throw err;
  }
  await input.bucket.delete(key);
  return null;
}
