// The open artifact's header: its title, back to the list, pin, rename, download, delete
// (confirmed inline, so that a stray click or key press never loses it).
import { useId, useState } from "react";
import type { Artifact } from "../../../durable-objects/protocol/rest";
import { artifactApi, downloadUrl } from "./artifact-api";
import { typeLabel } from "./artifact-kind";
import { useArtifactAction } from "./use-artifact-action";

export function ArtifactHeader(props: {
  artifact: Pick<Artifact, "id" | "title" | "type" | "language" | "pinned">;
  onBack: () => void;
  onChanged: (artifact: Artifact) => void;
  onDeleted: (id: string) => void;
  /** False for members: pinning and deleting are the owner's (the API answers 403). */
  canManage?: boolean;
}) {
  const { artifact } = props;
  const [confirming, setConfirming] = useState(false);
  const { busy, error, setError, run } = useArtifactAction();
  // The new title while renaming; null otherwise.
  const [naming, setNaming] = useState<string | null>(null);
  const titleField = useId();

  return (
    <header className="artifact-header">
      <div className="artifact-header-row">
        <button type="button" onClick={props.onBack}>
          ← Back to list
        </button>
        <div className="artifact-header-title">
          {naming === null ? (
            <h2>{artifact.title}</h2>
          ) : (
            <form
              className="artifact-rename"
              onSubmit={(e) => {
                e.preventDefault();
                const title = naming.trim();
                if (!title) return setError("A title cannot be empty; type one or press Cancel.");
                void run(async () => {
                  props.onChanged(await artifactApi.update(artifact.id, { title }));
                  setNaming(null);
                });
              }}
            >
              <label htmlFor={titleField}>New title</label>
              <input
                id={titleField}
                value={naming}
                maxLength={200}
                autoFocus
                disabled={busy}
                onChange={(e) => setNaming(e.target.value)}
                onKeyDown={(e) => {
                  // Escape leaves renaming, not the pane (App closes the pane unless prevented).
                  if (e.key === "Escape") {
                    e.preventDefault();
                    setNaming(null);
                  }
                }}
              />
              <button type="submit" className="primary" disabled={busy}>
                Save title
              </button>
              <button type="button" disabled={busy} onClick={() => setNaming(null)}>
                Cancel
              </button>
            </form>
          )}
          <span className="artifact-item-meta">{typeLabel(artifact.type, artifact.language)}</span>
        </div>
      </div>
      <div className="artifact-toolbar">
        {props.canManage === false ? <ArtifactDownload id={artifact.id} /> : manageButtons()}
      </div>
      {props.canManage === false && (
        <p className="artifact-note" data-testid="artifact-role-note">
          Only the owner of this conversation can pin, edit or delete its artifacts; you can read
          and download them.
        </p>
      )}
      {error && (
        <p role="alert" className="artifact-error">
          {error}
        </p>
      )}
    </header>
  );

  function manageButtons() {
    return (
      <>
        <button
          type="button"
          aria-pressed={artifact.pinned}
          disabled={busy}
          title="Pinned artifacts go with every message to the model"
          onClick={() =>
            run(async () => props.onChanged(await artifactApi.pin(artifact.id, !artifact.pinned)))
          }
        >
          {artifact.pinned ? "Pinned" : "Pin"}
        </button>
        <button type="button" disabled={busy} onClick={() => setNaming(artifact.title)}>
          Rename
        </button>
        <ArtifactDownload id={artifact.id} />
        {confirming ? (
          <span className="artifact-confirm" role="group" aria-label="Confirm deletion">
            <span>Delete “{artifact.title}”?</span>
            <button
              type="button"
              className="danger"
              disabled={busy}
              autoFocus
              onClick={() =>
                run(async () => {
                  await artifactApi.remove(artifact.id);
                  props.onDeleted(artifact.id);
                })
              }
            >
              Yes, delete
            </button>
            <button type="button" disabled={busy} onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </span>
        ) : (
          <button type="button" onClick={() => setConfirming(true)}>
            Delete
          </button>
        )}
      </>
    );
  }
}

function ArtifactDownload(props: { id: string }) {
  return (
    <a className="button-link" href={downloadUrl(props.id, true)} download>
      Download
    </a>
  );
}
