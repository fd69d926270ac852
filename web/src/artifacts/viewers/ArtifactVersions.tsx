// A text artifact's earlier versions (kept by each save): listed on demand, newest first; one can
// be read and, by the owner, restored. Restoring is a save like any other, so the content it
// replaces becomes a version in turn, and a version saved meanwhile elsewhere refuses it.
import { useContext, useEffect, useState } from "react";
import type { ArtifactVersion } from "../../../../durable-objects/protocol/rest";
import { ArtifactEditingAllowed } from "../artifact-editing";
import { artifactApi, failureWords } from "../artifact-api";
import type { ViewerProps } from "./viewer-props";
import { useArtifactAction } from "../use-artifact-action";

export function ArtifactVersions({ artifact, onSaved }: ViewerProps) {
  const editable = useContext(ArtifactEditingAllowed);
  const [open, setOpen] = useState(false);
  const [items, setItems] = useState<ArtifactVersion[] | null>(null);
  const [shown, setShown] = useState<ArtifactVersion | null>(null);
  const { busy, error, setError, run } = useArtifactAction();

  // Reloaded whenever the artifact is saved (its updatedAt moves), as a save adds a version.
  useEffect(() => {
    if (!open) return;
    let live = true;
    setItems(null);
    artifactApi.versions(artifact.id).then(
      (r) => live && setItems(r.items),
      (err: unknown) => live && setError(failureWords(err)),
    );
    return () => {
      live = false;
    };
  }, [open, artifact.id, artifact.updatedAt]);

  const show = (v: ArtifactVersion) =>
    run(async () => setShown(await artifactApi.version(artifact.id, v.id)));

  const restore = (v: ArtifactVersion) =>
    run(async () => {
      const saved = await artifactApi.update(artifact.id, {
        content: v.content ?? "",
        baseUpdatedAt: artifact.updatedAt,
      });
      onSaved({ ...saved, content: saved.content ?? v.content ?? "" });
      setShown(null);
    });

  if (!open) {
    return (
      <button type="button" aria-expanded={false} onClick={() => setOpen(true)}>
        Earlier versions
      </button>
    );
  }
  return (
    <section className="artifact-versions" aria-label="Earlier versions">
      <button type="button" aria-expanded onClick={() => setOpen(false)}>
        Hide earlier versions
      </button>
      {error && (
        <p role="alert" className="artifact-error">
          {error}
        </p>
      )}
      {items === null && !error && <p className="artifact-note">Loading versions…</p>}
      {items?.length === 0 && (
        <p className="artifact-note">
          No earlier versions: it has not been edited since it was made.
        </p>
      )}
      {items && items.length > 0 && (
        <ol className="artifact-version-list">
          {items.map((v) => (
            <li key={v.id}>
              <button
                type="button"
                disabled={busy}
                aria-pressed={shown?.id === v.id}
                onClick={() => show(v)}
              >
                Saved {new Date(v.savedAt).toLocaleString()}
              </button>
              <span className="artifact-item-meta"> · {v.size} bytes</span>
            </li>
          ))}
        </ol>
      )}
      {shown && (
        <div className="artifact-version-shown">
          <p className="artifact-note">
            The version saved {new Date(shown.savedAt).toLocaleString()}:
          </p>
          <pre className="artifact-text" data-testid="artifact-version-content">
            {shown.content}
          </pre>
          {editable && (
            <button
              type="button"
              className="primary"
              disabled={busy}
              onClick={() => restore(shown)}
            >
              Restore this version
            </button>
          )}
        </div>
      )}
    </section>
  );
}
