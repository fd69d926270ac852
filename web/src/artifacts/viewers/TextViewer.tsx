// Anything without a viewer of its own: its text as it is, or a note that it is binary.
import { CopyButton } from "./CopyButton";
import type { ViewerProps } from "./viewer-props";

export function TextViewer({ artifact, note }: ViewerProps & { note?: string }) {
  if (artifact.content == null) {
    return (
      <p className="artifact-note">
        This artifact is a file ({artifact.contentType ?? "of unknown type"}) that cannot be shown
        here; Download saves it.
      </p>
    );
  }
  return (
    <>
      <div className="artifact-toolbar">
        <CopyButton text={artifact.content} />
      </div>
      {note && <p className="artifact-note">{note}</p>}
      <pre className="artifact-text">{artifact.content}</pre>
    </>
  );
}
