// The files going with the next message: name, size, upload progress or why the server refused
// it, and a button to remove each.
import { useEffect, useRef } from "react";
import "./attachment-chips.css";
import { formatBytes } from "../../../../durable-objects/protocol/format-bytes";
import type { AttachmentDraft } from "./use-attachment-drafts";

export function AttachmentChips(props: {
  drafts: readonly AttachmentDraft[];
  onRemove: (key: string) => void;
  /** The last chip was removed: where the focus goes instead of the page's start. */
  onEmptied: () => void;
}) {
  const list = useRef<HTMLUListElement>(null);
  // After a removal the focus goes to the next chip's ×, else the previous one's, else onEmptied:
  // a keyboard user removing files one after another stays where they were.
  const focusAfter = useRef<string | null | undefined>(undefined);
  const { drafts, onRemove, onEmptied } = props;
  useEffect(() => {
    const target = focusAfter.current;
    if (target === undefined) return;
    focusAfter.current = undefined;
    const button = target
      ? list.current?.querySelector<HTMLButtonElement>(
          `[data-key="${target}"] .attachment-chip-remove`,
        )
      : null;
    if (button) button.focus();
    else onEmptied();
  }, [drafts, onEmptied]);
  const remove = (key: string) => {
    const at = drafts.findIndex((d) => d.key === key);
    focusAfter.current = (drafts[at + 1] ?? drafts[at - 1])?.key ?? null;
    onRemove(key);
  };
  if (drafts.length === 0) return null;
  return (
    <ul ref={list} className="attachment-chips" aria-label="Files for the next message">
      {drafts.map((d) => (
        <li
          key={d.key}
          className={`attachment-chip ${d.status}`}
          data-status={d.status}
          data-key={d.key}
        >
          <span className="attachment-chip-name">{d.name}</span>{" "}
          <span className="muted small">{formatBytes(d.size)}</span>
          {d.status === "uploading" && (
            <progress
              max={1}
              value={d.progress}
              aria-label={`Uploading ${d.name}`}
              title={`${Math.round(d.progress * 100)}%`}
            />
          )}
          {d.status === "ready" && <span className="muted small">attached</span>}
          <button
            type="button"
            className="attachment-chip-remove"
            aria-label={`Remove ${d.name}`}
            onClick={() => remove(d.key)}
          >
            ×
          </button>
          {d.status === "failed" && (
            <p role="alert" className="error small attachment-chip-error">
              {d.error}
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}
