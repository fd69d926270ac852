// Saving the artifacts of a turn: binaries to R2 (keys we generate), rows to D1 via the outbox.
import type { ArtifactRef, ArtifactSource } from "../loop/types";
import type { DraftArtifact } from "../loop/tool-results";
import type { NewServerEvent } from "../protocol/wire";
import { withoutBidiControls } from "../protocol/display-text";
import { enqueue } from "./outbox";
import type { ConversationStore } from "./store";

export const artifactKey = (conversationId: string, artifactId: string) =>
  `conversations/${conversationId}/artifacts/${artifactId}`;

export interface ArtifactSaver {
  save(draft: DraftArtifact, source: ArtifactSource): Promise<ArtifactRef>;
}

export function artifactSaver(opts: {
  conversationId: string;
  messageId: string;
  bucket: R2Bucket;
  store: ConversationStore;
  emit: (e: NewServerEvent) => void;
}): ArtifactSaver {
  return {
    async save(draft, source) {
      const id = crypto.randomUUID();
      // A tool names its images and links: never with controls that reorder the list around it.
      const title = withoutBidiControls(draft.title).slice(0, 200);
      let r2Key: string | null = null;
      let size: number | null =
        draft.content !== undefined ? new TextEncoder().encode(draft.content).length : null;
      if (draft.bytes) {
        r2Key = artifactKey(opts.conversationId, id);
        await opts.bucket.put(r2Key, draft.bytes, {
          httpMetadata: { contentType: draft.contentType ?? "application/octet-stream" },
        });
        size = draft.bytes.length;
      }
      const position = Number(opts.store.getMeta("artifact_position") ?? "0") + 1;
      opts.store.setMeta("artifact_position", String(position));
      // The row is linked to its message once the message itself is in D1 (see the outbox).
      enqueue(opts.store, {
        kind: "artifact",
        row: {
          id,
          conversationId: opts.conversationId,
          messageId: null,
          type: draft.type,
          title,
          content: draft.bytes ? null : (draft.content ?? ""),
          r2Key,
          contentType: draft.contentType ?? null,
          size,
          language: draft.language ?? null,
          metadata: JSON.stringify({ ...draft.metadata, source }),
          position,
          createdAt: Date.now(),
        },
      });
      opts.emit({
        type: "artifact_created",
        messageId: opts.messageId,
        artifact: { id, type: draft.type, title, language: draft.language ?? null },
      });
      return { id, type: draft.type, title };
    },
  };
}
