// The files a user attached to their message: an image as a thumbnail, a PDF or text file as an
// icon and its name; each opens in the artifact pane, downloads, and pins (pinned files go with
// every later message to the model).
import { useState } from "react";
import type { AttachmentPart } from "../../../durable-objects/protocol/messages";
import { downloadUrl, failureWords } from "../artifacts/artifact-api";
import { formatBytes } from "../../../durable-objects/protocol/format-bytes";
import { KIND_ICONS, KIND_LABELS, previewUrl } from "./attachment-kinds";
import { usePins } from "./pins";
import "./attachments.css";

export function MessageAttachments(props: {
  parts: readonly AttachmentPart[];
  onOpenArtifact: (id: string) => void;
}) {
  if (props.parts.length === 0) return null;
  return (
    <ul className="message-attachments" aria-label="Attached files">
      {props.parts.map((p) => (
        <MessageAttachment key={p.artifactId} part={p} onOpen={props.onOpenArtifact} />
      ))}
    </ul>
  );
}

function MessageAttachment({
  part,
  onOpen,
}: {
  part: AttachmentPart;
  onOpen: (id: string) => void;
}) {
  const [thumbnailFailed, setThumbnailFailed] = useState(false);
  if (part.deleted) return <DeletedAttachment part={part} />;
  const thumbnail = part.kind === "image" && !thumbnailFailed;
  return (
    <li className="message-attachment" data-kind={part.kind} data-testid="message-attachment">
      <button
        type="button"
        className="message-attachment-open"
        title={`Open ${part.name} in the artifact pane`}
        onClick={() => onOpen(part.artifactId)}
      >
        {thumbnail ? (
          // The name beside it says what it is: the image itself needs no second name.
          <img
            className="message-attachment-thumbnail"
            src={downloadUrl(part.artifactId)}
            alt=""
            loading="lazy"
            onError={() => setThumbnailFailed(true)}
          />
        ) : (
          <span className="message-attachment-icon" aria-hidden="true">
            {KIND_ICONS[part.kind]}
          </span>
        )}
        <span className="message-attachment-name">{part.name}</span>
      </button>
      <span className="muted small">
        {KIND_LABELS[part.kind]} · {formatBytes(part.size)}
      </span>
      <span className="message-attachment-actions">
        {(part.kind === "pdf" || part.kind === "image") && (
          <a
            className="button-link"
            href={previewUrl(part.artifactId)}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={`Preview ${part.name} in a new tab`}
          >
            Preview
          </a>
        )}
        <a
          className="button-link"
          href={downloadUrl(part.artifactId, true)}
          download={part.name}
          aria-label={`Download ${part.name}`}
        >
          Download
        </a>
        <PinToggle artifactId={part.artifactId} name={part.name} />
      </span>
    </li>
  );
}

/** A file deleted since it was sent: named and marked, with nothing to open, fetch or pin. */
function DeletedAttachment({ part }: { part: AttachmentPart }) {
  return (
    <li
      className="message-attachment"
      data-kind={part.kind}
      data-deleted=""
      data-testid="message-attachment"
    >
      <span className="message-attachment-open">
        <span className="message-attachment-icon" aria-hidden="true">
          {KIND_ICONS[part.kind]}
        </span>
        <span className="message-attachment-name">
          {part.name} <span className="message-attachment-note">(deleted)</span>
        </span>
      </span>
      <span className="muted small">
        {KIND_LABELS[part.kind]} · {formatBytes(part.size)} · deleted since it was sent
      </span>
    </li>
  );
}

function PinToggle(props: { artifactId: string; name: string }) {
  const pins = usePins();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!pins) return null;
  const pinned = pins.pinnedIds.has(props.artifactId);
  const toggle = () => {
    setBusy(true);
    setError(null);
    pins
      .setPinned(props.artifactId, !pinned)
      .catch((err: unknown) => setError(failureWords(err)))
      .finally(() => setBusy(false));
  };
  return (
    <>
      <button
        type="button"
        aria-pressed={pinned}
        title="Pinned files go with every message to the model"
        disabled={busy}
        onClick={toggle}
      >
        {pinned ? "Pinned" : "Pin"}
        {/* The visible word starts the name, as speech input expects; the file says which. */}
        <span className="visually-hidden"> {props.name}</span>
      </button>
      {error && (
        <span role="alert" className="error small">
          {error}
        </span>
      )}
    </>
  );
}
