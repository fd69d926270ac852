// A text artifact that can be edited in place: Edit opens a labelled textarea, Save sends the
// new content (PATCH) and shows the server's words if it refuses, Cancel keeps the old text.
// A save names the version it was made from; if another tab or person saved since, the server
// refuses it and Reload shows their version (the draft stays until then, to copy from). A save
// made elsewhere while editing is said at once (the pane fetches it), with the same Reload. An
// artifact deleted elsewhere while editing keeps the draft on screen to copy, with no Save.
import { useContext, useId, useState, type ReactNode } from "react";
import { ArtifactDeleted, ArtifactEditingAllowed } from "../artifact-editing";
import { artifactApi, failureWords, isStaleEdit } from "../artifact-api";
import { ArtifactVersions } from "./ArtifactVersions";
import type { ViewerProps } from "./viewer-props";

export function EditableText(
  props: ViewerProps & {
    /** What is being edited, for the textarea's label ("code", "document"). */
    what: string;
    view: (text: string) => ReactNode;
    actions?: ReactNode;
  },
) {
  const { artifact, onSaved } = props;
  const text = artifact.content ?? "";
  // The text being edited, and the version it was begun from (its updatedAt and content).
  const [draft, setDraft] = useState<{ text: string; base: number; from: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [stale, setStale] = useState(false);
  const fieldId = useId();
  const editable = useContext(ArtifactEditingAllowed);
  const deleted = useContext(ArtifactDeleted);

  // The pane shows the latest version: if only its title or pin changed since the edit began, the
  // draft still stands on it; if its content changed, the draft's save would overwrite it.
  const changedElsewhere = draft !== null && text !== draft.from;
  const save = async () => {
    if (draft === null) return;
    setSaving(true);
    setError(null);
    try {
      const saved = await artifactApi.update(artifact.id, {
        content: draft.text,
        baseUpdatedAt: changedElsewhere ? draft.base : artifact.updatedAt,
      });
      onSaved({ ...saved, content: saved.content ?? draft.text });
      setDraft(null);
    } catch (err) {
      setError(failureWords(err));
      setStale(isStaleEdit(err));
    } finally {
      setSaving(false);
    }
  };

  // The version saved meanwhile replaces this one in the pane; the draft is dropped.
  const reload = async () => {
    setSaving(true);
    try {
      onSaved(await artifactApi.get(artifact.id));
      setDraft(null);
      setError(null);
      setStale(false);
    } catch (err) {
      setError(failureWords(err));
    } finally {
      setSaving(false);
    }
  };

  if (draft !== null) {
    return (
      <div className="artifact-edit">
        <label htmlFor={fieldId}>Edit the {props.what}</label>
        <textarea
          id={fieldId}
          value={draft.text}
          spellCheck={false}
          rows={Math.min(30, Math.max(8, draft.text.split("\n").length + 1))}
          onChange={(e) => setDraft({ ...draft, text: e.target.value })}
          readOnly={deleted}
          disabled={saving}
        />
        {deleted && (
          <p role="alert" className="artifact-error">
            Your edit can no longer be saved: copy your text before you close the editor.
          </p>
        )}
        {error && !deleted && (
          <p role="alert" className="artifact-error">
            Not saved: {error}
          </p>
        )}
        {changedElsewhere && !saving && !error && !deleted && (
          <p role="alert" className="artifact-error">
            Changed in another tab (or by someone else) since you began editing. Copy your text,
            then Reload to see their version.
          </p>
        )}
        <div className="artifact-toolbar">
          {deleted ? null : stale || (changedElsewhere && !saving) ? (
            <button type="button" className="primary" onClick={reload} disabled={saving}>
              Reload (drops your edit)
            </button>
          ) : (
            <button type="button" className="primary" onClick={save} disabled={saving}>
              {saving ? "Saving…" : "Save"}
            </button>
          )}
          <button
            type="button"
            onClick={() => {
              setDraft(null);
              setError(null);
              setStale(false);
            }}
            disabled={saving}
          >
            {deleted ? "Close (drops your edit)" : "Cancel"}
          </button>
        </div>
      </div>
    );
  }
  return (
    <>
      <div className="artifact-toolbar">
        {editable && (
          <button
            type="button"
            onClick={() => setDraft({ text, base: artifact.updatedAt, from: text })}
          >
            Edit
          </button>
        )}
        {props.actions}
      </div>
      <ArtifactVersions artifact={artifact} onSaved={onSaved} />
      {props.view(text)}
    </>
  );
}
