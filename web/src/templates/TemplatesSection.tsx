// Your templates, in the settings panel: the built-ins (copy one to change it) and your own
// (edit, delete), and a button to create one.
import { useCallback, useEffect, useId, useState } from "react";
import type { ProviderInfo } from "../../../durable-objects/protocol/rest";
import type { Template, TemplateInput } from "../../../durable-objects/protocol/templates";
import { ApiFailure } from "../api";
import { ConfirmDialog } from "../ui/dialog";
import { formFromTemplate } from "./template-form";
import { TemplateDialog } from "./TemplateDialog";
import { templatesApi } from "./templates-api";

/** What the open dialog does: create (from scratch or a copy), edit, or delete. */
type Editing =
  | { kind: "create"; from: Template | null }
  | { kind: "edit"; template: Template }
  | { kind: "delete"; template: Template }
  | null;

const wordsOf = (err: unknown, fallback: string) =>
  err instanceof ApiFailure ? err.message : fallback;

export function TemplatesSection(props: { providers: readonly ProviderInfo[] }) {
  const headingId = useId();
  const [templates, setTemplates] = useState<Template[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [editing, setEditing] = useState<Editing>(null);

  const reload = useCallback(async () => {
    try {
      setTemplates((await templatesApi.list()).items);
      setProblem(null);
    } catch (err) {
      setProblem(wordsOf(err, "Could not load your templates."));
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  // What the server said about the template just saved (a `{{…}}` that is not a variable).
  const [warnings, setWarnings] = useState<string[]>([]);
  useEffect(() => {
    if (editing) setWarnings([]);
  }, [editing]);

  /** Runs from a dialog, which shows a failure itself. */
  const run = async <T,>(change: () => Promise<T>, failure: string): Promise<T> => {
    let result: T;
    try {
      result = await change();
    } catch (err) {
      throw new Error(wordsOf(err, failure), { cause: err });
    }
    setEditing(null);
    await reload();
    return result;
  };
  const save = async (input: TemplateInput) => {
    const saved =
      editing?.kind === "edit"
        ? await run(
            () => templatesApi.update(editing.template.id, input),
            "Could not save the template.",
          )
        : await run(() => templatesApi.create(input), "Could not create the template.");
    setWarnings(saved.warnings ?? []);
  };

  return (
    <section className="settings-section" aria-labelledby={headingId}>
      <h3 id={headingId}>Templates</h3>
      <p className="muted small">Start a conversation from one in the new-conversation form.</p>
      {problem && (
        <p role="alert" className="error small">
          {problem}
        </p>
      )}
      {warnings.length > 0 && (
        <div role="status" className="warning small">
          {warnings.map((w) => (
            <p key={w}>{w}</p>
          ))}
        </div>
      )}
      <ul aria-label="Templates">
        {templates?.map((t) => (
          <li key={t.id}>
            <span>
              {t.name}
              {t.builtin && <span className="muted small"> · built-in</span>}
            </span>
            {t.builtin ? (
              <button type="button" onClick={() => setEditing({ kind: "create", from: t })}>
                Copy
              </button>
            ) : (
              <>
                <button type="button" onClick={() => setEditing({ kind: "edit", template: t })}>
                  Edit
                </button>
                <button type="button" onClick={() => setEditing({ kind: "delete", template: t })}>
                  Delete
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
      <button type="button" onClick={() => setEditing({ kind: "create", from: null })}>
        New template
      </button>
      {(editing?.kind === "create" || editing?.kind === "edit") && (
        <TemplateDialog
          title={editing.kind === "edit" ? `Edit “${editing.template.name}”` : "New template"}
          initial={formFromTemplate(editing.kind === "edit" ? editing.template : editing.from)}
          providers={props.providers}
          onSave={save}
          onCancel={() => setEditing(null)}
        />
      )}
      {editing?.kind === "delete" && (
        <ConfirmDialog
          title="Delete template?"
          message={`“${editing.template.name}” is deleted. Conversations started from it keep their prompt.`}
          confirmLabel="Delete"
          onConfirm={() =>
            run(() => templatesApi.remove(editing.template.id), "Could not delete the template.")
          }
          onCancel={() => setEditing(null)}
        />
      )}
    </section>
  );
}
