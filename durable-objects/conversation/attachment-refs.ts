// The attachments a send names: each must be an attachment artifact of this conversation (in
// D1, where the upload route put it). They become the `attachment` parts of the user message.
import { ATTACHMENT_ARTIFACT_TYPE, AttachmentMetadata } from "../protocol/attachments";
import type { AttachmentPart } from "../protocol/messages";
import type { ErrorInfo } from "../protocol/wire";

export type ResolvedAttachments =
  { ok: true; parts: AttachmentPart[] } | { ok: false; error: ErrorInfo };

export async function resolveAttachments(
  d1: D1Database,
  conversationId: string,
  ids: readonly string[] | undefined,
): Promise<ResolvedAttachments> {
  const wanted = [...new Set(ids ?? [])];
  if (wanted.length === 0) return { ok: true, parts: [] };
  const rows = await d1
    .prepare(
      `SELECT id, metadata FROM artifacts WHERE conversation_id = ? AND type = ? AND id IN (${wanted.map(() => "?").join(", ")})`,
    )
    .bind(conversationId, ATTACHMENT_ARTIFACT_TYPE, ...wanted)
    .all<{ id: string; metadata: string }>();
  const byId = new Map(rows.results.map((r) => [r.id, r.metadata]));
  const parts: AttachmentPart[] = [];
  for (const id of wanted) {
    const metadata = byId.get(id);
    const parsed = metadata === undefined ? null : AttachmentMetadata.safeParse(safeJson(metadata));
    if (!parsed?.success)
      return {
        ok: false,
        error: {
          code: "invalid_attachment",
          message:
            `'${id.slice(0, 100)}' is not an attachment of this conversation. Upload the file ` +
            "with POST /api/conversations/:id/attachments and send the artifact id it answers.",
        },
      };
    parts.push({ type: "attachment", artifactId: id, ...parsed.data.attachment });
  }
  return { ok: true, parts };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
