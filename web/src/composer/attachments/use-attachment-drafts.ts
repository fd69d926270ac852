// The files attached to the next message, each uploading, ready or refused. A file uploads as
// soon as it is attached, so Send only waits for what is still on its way; removing a chip stops
// its upload or deletes the stored file (it was never sent, and it counts toward the quota).
// Leaving the conversation keeps its chips for when the user comes back (in this page).
import { useCallback, useEffect, useRef, useState } from "react";
import { MAX_ATTACHMENTS_PER_MESSAGE } from "../../../../durable-objects/protocol/attachments";
import type { Artifact } from "../../../../durable-objects/protocol/rest";
import { ApiFailure } from "../../api";
import { type AttachmentUploader, UPLOAD_ABORTED } from "./upload-attachment";

/** A chip's file: `source` tells the same file attached twice (name, size, last change). */
type DraftFile = { key: string; name: string; size: number; source: string };

export type AttachmentDraft =
  | (DraftFile & { status: "uploading"; progress: number })
  | ReadyDraft
  | (DraftFile & { status: "failed"; error: string });

export type ReadyDraft = DraftFile & { status: "ready"; artifact: Artifact };

export interface AttachmentDrafts {
  drafts: readonly AttachmentDraft[];
  /** Uploads each file (beyond the per-message limit, a file gets a refused chip instead). */
  add: (files: readonly File[]) => void;
  /** Removes a chip: stops its upload, or deletes the file it stored. */
  remove: (key: string) => void;
  /** The stored files' artifact ids, for the message being sent; the chips are cleared. */
  take: () => string[];
  /**
   * Puts back the chips of files taken for a message the server refused (those of `artifactIds`
   * this composer sent), ahead of any attached since. Returns the ids it has no chip for (the
   * message was sent before a reload, from the outbox).
   */
  giveBack: (artifactIds: readonly string[]) => string[];
  /** A chip again for a stored file of a refused message this page did not attach. */
  restore: (artifact: Artifact) => void;
  /** The stored file of a ready chip is gone (deleted meanwhile): its chip says so. */
  gone: (artifactId: string) => void;
}

let nextKey = 0;

/** The chips of conversations the user left with files not sent, by conversation id. */
const leftBehind = new Map<string, readonly AttachmentDraft[]>();

export function useAttachmentDrafts(
  conversationId: string,
  upload: AttachmentUploader,
  discard: (artifactId: string) => Promise<unknown>,
): AttachmentDrafts {
  const [drafts, setDrafts] = useState<readonly AttachmentDraft[]>(
    () => leftBehind.get(conversationId) ?? [],
  );
  const current = useRef(drafts);
  current.current = drafts;
  const uploads = useRef(new Map<string, AbortController>());
  // The chips of files already sent, by artifact id: a refused message gives them back.
  const taken = useRef(new Map<string, ReadyDraft>());

  // Leaving the conversation stops what is still uploading (its chip says so) and keeps the
  // chips for a return: the stored files are the user's, waiting for a message.
  useEffect(() => {
    leftBehind.delete(conversationId);
    const running = uploads.current;
    return () => {
      running.forEach((c) => c.abort());
      const kept = current.current.map((d): AttachmentDraft =>
        d.status === "uploading"
          ? {
              ...base(d),
              status: "failed",
              error: "The upload stopped when you left; attach the file again.",
            }
          : d,
      );
      if (kept.length > 0) leftBehind.set(conversationId, kept);
    };
  }, [conversationId]);

  const update = useCallback((key: string, next: AttachmentDraft) => {
    setDrafts((all) => all.map((d) => (d.key === key ? next : d)));
  }, []);

  const add = useCallback(
    (files: readonly File[]) => {
      let room =
        MAX_ATTACHMENTS_PER_MESSAGE - current.current.filter((d) => d.status !== "failed").length;
      const added: AttachmentDraft[] = [];
      for (const file of files) {
        const base: DraftFile = {
          key: `attachment-${++nextKey}`,
          name: file.name || "pasted file",
          size: file.size,
          source: `${file.name}\u0000${file.size}\u0000${file.lastModified}`,
        };
        // The same file twice would be stored, counted and sent to the model twice.
        const twin = [...current.current, ...added].find(
          (d) => d.source === base.source && d.status !== "failed",
        );
        if (twin) {
          added.push({
            ...base,
            status: "failed",
            error: `${base.name} is attached already; this copy is left out.`,
          });
          continue;
        }
        if (room-- <= 0) {
          added.push({
            ...base,
            status: "failed",
            error: `A message carries at most ${MAX_ATTACHMENTS_PER_MESSAGE} files; send these first, then attach the rest.`,
          });
          continue;
        }
        added.push({ ...base, status: "uploading", progress: 0 });
        const controller = new AbortController();
        uploads.current.set(base.key, controller);
        upload(
          file,
          (progress) => update(base.key, { ...base, status: "uploading", progress }),
          controller.signal,
        ).then(
          (artifact) => {
            uploads.current.delete(base.key);
            update(base.key, { ...base, status: "ready", artifact });
          },
          (err: unknown) => {
            uploads.current.delete(base.key);
            if (err instanceof ApiFailure && err.code === UPLOAD_ABORTED) return;
            update(base.key, { ...base, status: "failed", error: refusalWords(err) });
          },
        );
      }
      setDrafts((all) => [...all, ...added]);
    },
    [upload, update],
  );

  const remove = useCallback(
    (key: string) => {
      const draft = current.current.find((d) => d.key === key);
      uploads.current.get(key)?.abort();
      uploads.current.delete(key);
      if (draft?.status === "ready") void discard(draft.artifact.id).catch(() => undefined);
      setDrafts((all) => all.filter((d) => d.key !== key));
    },
    [discard],
  );

  const take = useCallback(() => {
    const ready = current.current.filter((d): d is ReadyDraft => d.status === "ready");
    for (const d of ready) taken.current.set(d.artifact.id, d);
    setDrafts([]);
    return ready.map((d) => d.artifact.id);
  }, []);

  const giveBack = useCallback((artifactIds: readonly string[]) => {
    const back = artifactIds.flatMap((id) => {
      const draft = taken.current.get(id);
      taken.current.delete(id);
      return draft ? [draft] : [];
    });
    if (back.length > 0)
      setDrafts((all) => [...back, ...all.filter((d) => !back.some((b) => b.key === d.key))]);
    return artifactIds.filter((id) => !back.some((b) => b.artifact.id === id));
  }, []);

  const restore = useCallback((artifact: Artifact) => {
    const chip: ReadyDraft = {
      key: `attachment-${++nextKey}`,
      name: artifact.title,
      size: artifact.size ?? 0,
      source: `artifact\u0000${artifact.id}`,
      status: "ready",
      artifact,
    };
    setDrafts((all) =>
      all.some((d) => d.status === "ready" && d.artifact.id === artifact.id) ? all : [chip, ...all],
    );
  }, []);

  const gone = useCallback((artifactId: string) => {
    setDrafts((all) =>
      all.map((d) =>
        d.status === "ready" && d.artifact.id === artifactId
          ? {
              ...base(d),
              status: "failed",
              error: `${d.name} was deleted before the message went: remove it, or attach it again.`,
            }
          : d,
      ),
    );
  }, []);

  return { drafts, add, remove, take, giveBack, restore, gone };
}

const base = (d: AttachmentDraft): DraftFile => ({
  key: d.key,
  name: d.name,
  size: d.size,
  source: d.source,
});

function refusalWords(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
