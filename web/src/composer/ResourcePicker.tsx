// Attaching a resource of the conversation's MCP servers to the next message: a list of the
// servers' resources and templates (a template asks for its variables first).
import { type FormEvent, useEffect, useState } from "react";
import type {
  McpAttachment,
  McpResourceInfo,
  McpResourceList,
  McpResourceTemplateInfo,
} from "../../../durable-objects/protocol/rest";
import { ArgumentFields, missingFields } from "./ArgumentFields";
import { type CatalogApi, suggestFor } from "./catalog-api";

export function ResourcePicker(props: {
  api: CatalogApi;
  /** Characters of resource text the message can still take inline. */
  inlineBudget: number;
  onAttach: (attachment: McpAttachment) => void;
  onClose: () => void;
}) {
  const { api } = props;
  const [list, setList] = useState<McpResourceList | null>(null);
  const [filter, setFilter] = useState("");
  const [template, setTemplate] = useState<McpResourceTemplateInfo | null>(null);
  const [variables, setVariables] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // Read fresh each time the picker opens: what a server lists now (list_changed included).
  useEffect(() => {
    api
      .resources()
      .then(setList, (err: unknown) => setError(String(err instanceof Error ? err.message : err)));
  }, [api]);

  const attach = async (
    target:
      | { server: string; uri: string }
      | { server: string; uriTemplate: string; variables: Record<string, string> },
  ) => {
    setBusy(true);
    setError(null);
    try {
      props.onAttach(
        await api.attach({ ...target, maxInlineChars: Math.max(0, props.inlineBudget) }),
      );
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  const q = filter.toLowerCase();
  const matches = (r: McpResourceInfo | McpResourceTemplateInfo) =>
    [r.name, r.title ?? "", r.server, "uri" in r ? r.uri : r.uriTemplate].some((s) =>
      s.toLowerCase().includes(q),
    );

  if (template) {
    const fields = template.variables.map((name) => ({ name, required: true }));
    const suggest = template.completes
      ? suggestFor(api, template.server, { type: "resource", uriTemplate: template.uriTemplate })
      : undefined;
    const submit = (e: FormEvent) => {
      e.preventDefault();
      const missing = missingFields(fields, variables);
      if (missing.length > 0) return setError(`Fill in ${missing.join(", ")}.`);
      void attach({ server: template.server, uriTemplate: template.uriTemplate, variables });
    };
    return (
      <form
        className="composer-panel resource-picker"
        aria-label={`Resource ${template.name}`}
        noValidate
        onSubmit={submit}
      >
        <p>
          <strong>{template.title ?? template.name}</strong>{" "}
          <span className="muted small">
            {template.server} · {template.uriTemplate}
          </span>
        </p>
        <ArgumentFields
          idPrefix={`template-${template.server}`}
          fields={fields}
          values={variables}
          onChange={setVariables}
          suggest={suggest}
        />
        {error && (
          <p role="alert" className="error small">
            {error}
          </p>
        )}
        <div className="composer-actions">
          <button type="button" onClick={() => setTemplate(null)}>
            Back
          </button>
          <button type="submit" className="primary" disabled={busy}>
            {busy ? "Attaching…" : "Attach"}
          </button>
        </div>
      </form>
    );
  }

  const resources = list?.resources.filter(matches) ?? [];
  const templates = list?.templates.filter(matches) ?? [];
  return (
    <div
      className="composer-panel resource-picker"
      role="dialog"
      aria-label="Attach a resource"
      onKeyDown={(e) => e.key === "Escape" && props.onClose()}
    >
      <input
        aria-label="Filter resources"
        placeholder="Filter resources…"
        value={filter}
        autoFocus
        onChange={(e) => setFilter(e.target.value)}
      />
      {!list && !error && <p className="muted small">Asking the servers for their resources…</p>}
      {list?.problems.map((p) => (
        <p key={p.server} className="muted small">
          {p.message}
        </p>
      ))}
      {list && resources.length + templates.length === 0 && (
        <p className="muted small">
          No resources{filter ? " match" : " are offered by the servers of this conversation"}.
        </p>
      )}
      <ul className="resource-list" aria-label="Resources">
        {resources.map((r) => (
          <li key={`${r.server} ${r.uri}`}>
            <button
              type="button"
              disabled={busy}
              onClick={() => void attach({ server: r.server, uri: r.uri })}
            >
              <span className="prompt-name">{r.title ?? r.name}</span>{" "}
              <span className="muted small">
                {r.server} · {r.uri}
              </span>
              {r.description && (
                <span className="prompt-description muted small">{r.description}</span>
              )}
            </button>
          </li>
        ))}
        {templates.map((t) => (
          <li key={`${t.server} ${t.uriTemplate}`}>
            <button
              type="button"
              disabled={busy}
              onClick={() => {
                setVariables({});
                setError(null);
                setTemplate(t);
              }}
            >
              <span className="prompt-name">{t.title ?? t.name}…</span>{" "}
              <span className="muted small">
                {t.server} · {t.uriTemplate}
              </span>
              {t.description && (
                <span className="prompt-description muted small">{t.description}</span>
              )}
            </button>
          </li>
        ))}
      </ul>
      {error && (
        <p role="alert" className="error small">
          {error}
        </p>
      )}
      <div className="composer-actions">
        <button type="button" onClick={props.onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
