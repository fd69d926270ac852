// A file the user attached: an image as an image, a PDF as its name with a preview in the
// browser's own viewer, text, tables and JSON read from the download route (the bytes live in
// R2, so the artifact itself has no text content).
import { useEffect, useState } from "react";
import { AttachmentMetadata } from "../../../../durable-objects/protocol/attachments";
import { KIND_ICONS, KIND_LABELS, previewUrl } from "../../attachments/attachment-kinds";
import { formatBytes } from "../../../../durable-objects/protocol/format-bytes";
import { downloadUrl } from "../artifact-api";
import { ImageViewer } from "./ImageViewer";
import { JsonViewer } from "./JsonViewer";
import { TextViewer } from "./TextViewer";
import type { ViewerProps } from "./viewer-props";

// Larger text shows its start; Download has the whole file.
const MAX_SHOWN_CHARS = 200_000;

export function AttachmentViewer(props: ViewerProps) {
  const meta = AttachmentMetadata.safeParse(props.artifact.metadata);
  if (!meta.success) return <TextViewer {...props} />;
  const info = meta.data.attachment;
  if (info.kind === "image") return <ImageViewer {...props} />;
  if (info.kind === "pdf") {
    return (
      <div className="artifact-file">
        <p>
          <span aria-hidden="true">{KIND_ICONS.pdf}</span> {info.name}{" "}
          <span className="artifact-item-meta">
            {KIND_LABELS.pdf} · {formatBytes(info.size)}
          </span>
        </p>
        <a
          className="button-link"
          href={previewUrl(props.artifact.id)}
          target="_blank"
          rel="noopener noreferrer"
        >
          Open the PDF in a new tab
        </a>
      </div>
    );
  }
  return <AttachedText {...props} json={info.kind === "json"} />;
}

function AttachedText(props: ViewerProps & { json: boolean }) {
  const { artifact } = props;
  const [text, setText] = useState<{ content: string; cut: boolean } | { error: string } | null>(
    null,
  );
  useEffect(() => {
    let live = true;
    fetch(downloadUrl(artifact.id), { credentials: "same-origin" })
      .then(async (res) => {
        if (!res.ok) throw new Error(`The file could not be read (${res.status}).`);
        const all = await res.text();
        return { content: all.slice(0, MAX_SHOWN_CHARS), cut: all.length > MAX_SHOWN_CHARS };
      })
      .then(
        (t) => live && setText(t),
        (err: unknown) =>
          live &&
          setText({
            error: err instanceof Error ? err.message : "The file could not be read.",
          }),
      );
    return () => {
      live = false;
    };
  }, [artifact.id]);
  if (!text) return <p className="artifact-note">Loading…</p>;
  if ("error" in text)
    return (
      <p role="alert" className="artifact-error">
        {text.error}
      </p>
    );
  const shown = { ...artifact, content: text.content };
  const note = text.cut
    ? `Only the first ${MAX_SHOWN_CHARS.toLocaleString("en")} characters are shown; Download has the whole file.`
    : undefined;
  if (props.json && !text.cut) return <JsonViewer artifact={shown} onSaved={props.onSaved} />;
  return <TextViewer artifact={shown} onSaved={props.onSaved} {...(note && { note })} />;
}
