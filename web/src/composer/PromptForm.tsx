// A prompt's arguments, filled in before the prompt is fetched into the composer.
import { type FormEvent, useState } from "react";
import type { McpPromptInfo, McpPromptResult } from "../../../durable-objects/protocol/rest";
import { ArgumentFields, missingFields } from "./ArgumentFields";
import { type CatalogApi, suggestFor } from "./catalog-api";

export function PromptForm(props: {
  prompt: McpPromptInfo;
  api: CatalogApi;
  onUse: (result: McpPromptResult) => void;
  onCancel: () => void;
}) {
  const { prompt, api } = props;
  const [values, setValues] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const suggest = prompt.completes
    ? suggestFor(api, prompt.server, { type: "prompt", name: prompt.name })
    : undefined;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const missing = missingFields(prompt.arguments, values);
    if (missing.length > 0) return setError(`Fill in ${missing.join(", ")}.`);
    setBusy(true);
    setError(null);
    try {
      const filled = Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim()));
      props.onUse(
        await api.prompt({ server: prompt.server, name: prompt.name, arguments: filled }),
      );
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="composer-panel prompt-form"
      aria-label={`Prompt ${prompt.name}`}
      noValidate
      onSubmit={submit}
      onKeyDown={(e) => e.key === "Escape" && props.onCancel()}
    >
      <p>
        <strong>/{prompt.name}</strong> <span className="muted small">from {prompt.server}</span>
      </p>
      {prompt.description && <p className="muted small">{prompt.description}</p>}
      <ArgumentFields
        idPrefix={`prompt-${prompt.server}-${prompt.name}`}
        fields={prompt.arguments}
        values={values}
        onChange={setValues}
        suggest={suggest}
      />
      {error && (
        <p role="alert" className="error small">
          {error}
        </p>
      )}
      <div className="composer-actions">
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={busy}>
          {busy ? "Getting the prompt…" : "Use prompt"}
        </button>
      </div>
    </form>
  );
}
