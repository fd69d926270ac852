// The files going with the next message: name, size, upload progress or why the server refused
// it, and a button to remove each.
import "./attachment-chips.css";
import { formatSize } from "./format-size";
import type { AttachmentDraft } from "./use-attachment-drafts";

export function AttachmentChips(props: {
  drafts: readonly AttachmentDraft[];
  onRemove: (key: string) => void;
}) {
  if (props.drafts.length === 0) return null;
  return (
    <ul className="attachment-chips" aria-label="Files for the next message">
      {props.drafts.map((d) => (
        <li key={d.key} className={`attachment-chip ${d.status}`} data-status={d.status}>
          <span className="attachment-chip-name">{d.name}</span>{" "}
          <span className="muted small">{formatSize(d.size)}</span>
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
            onClick={() => props.onRemove(d.key)}
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
