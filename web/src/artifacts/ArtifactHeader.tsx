// The open artifact's header: its title, back to the list, pin, rename, download, delete
// (confirmed inline, so that a stray click or key press never loses it). A rename names the
// version it was begun from, as a content save does: a rename made meanwhile elsewhere is not
// silently replaced (the server answers 409, or the pane already knows), and Reload shows it.
import { useId, useState } from "react";
import type { Artifact } from "../../../durable-objects/protocol/rest";
import { artifactApi, downloadUrl, isStaleEdit } from "./artifact-api";
import { typeLabel } from "./artifact-kind";
import { useArtifactAction } from "./use-artifact-action";

export function ArtifactHeader(props: {
  artifact: Pick<Artifact, "id" | "title" | "type" | "language" | "pinned" | "updatedAt">;
  onBack: () => void;
  onChanged: (artifact: Artifact) => void;
  onDeleted: (id: string) => void;
  /** False for members: pinning and deleting are the owner's (the API answers 403). */
  canManage?: boolean;
}) {
  const { artifact } = props;
  const [confirming, setConfirming] = useState(false);
  const { busy, error, setError, run } = useArtifactAction();
  // While renaming: the new title, and the title renaming began from.
  const [naming, setNaming] = useState<{ text: string; from: string } | null>(null);
  // The server refused the rename: the artifact changed since (Reload, then save again).
  const [stale, setStale] = useState(false);
  // Renamed elsewhere since renaming began (the pane follows other tabs); an edit of its content
  // or a pin is no conflict with a rename.
  const renamedMeanwhile = naming !== null && artifact.title !== naming.from;
  const startNaming = () => {
    setStale(false);
    setNaming({ text: artifact.title, from: artifact.title });
  };
  const stopNaming = () => {
    setNaming(null);
    setStale(false);
    setError(null);
  };
  const reload = () =>
    run(async () => {
      const now = await artifactApi.get(artifact.id);
      props.onChanged(now);
      // Your title stays in the field: saving it now replaces theirs knowingly.
      setNaming((n) => n && { ...n, from: now.title });
      setStale(false);
    });
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
                if (stale || renamedMeanwhile) return;
                const title = naming.text.trim();
                if (!title) return setError("A title cannot be empty; type one or press Cancel.");
                void run(async () => {
                  try {
                    props.onChanged(
                      await artifactApi.update(artifact.id, {
                        title,
                        baseUpdatedAt: artifact.updatedAt,
                      }),
                    );
                    setNaming(null);
                  } catch (err) {
                    setStale(isStaleEdit(err));
                    throw err;
                  }
                });
              }}
            >
              <label htmlFor={titleField}>New title</label>
              <input
                id={titleField}
                value={naming.text}
                maxLength={200}
                autoFocus
                disabled={busy}
                onChange={(e) => setNaming({ ...naming, text: e.target.value })}
                onKeyDown={(e) => {
                  // Escape leaves renaming, not the pane (App closes the pane unless prevented).
                  if (e.key === "Escape") {
                    e.preventDefault();
                    stopNaming();
                  }
                }}
              />
              {stale || renamedMeanwhile ? (
                <button type="button" className="primary" disabled={busy} onClick={reload}>
                  Reload
                </button>
              ) : (
                <button type="submit" className="primary" disabled={busy}>
                  Save title
                </button>
              )}
              <button type="button" disabled={busy} onClick={stopNaming}>
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
      {renamedMeanwhile && !error && (
        <p role="alert" className="artifact-error">
          Renamed “{artifact.title}” in another tab (or by someone else) since you began. Reload,
          then Save title to replace it with yours.
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
        <button type="button" disabled={busy} onClick={startNaming}>
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
