// Create a conversation: provider, model and mode (normal, or graph, where the answers build a
// knowledge graph), optionally from a template whose defaults fill the fields. Providers that are
// not configured cannot be picked (ProviderModelFields).
import { type FormEvent, useEffect, useState } from "react";
import type {
  Conversation,
  ConversationMode,
  ProviderInfo,
} from "../../../durable-objects/protocol/rest";
import type { Template } from "../../../durable-objects/protocol/templates";
import { fieldsFromTemplate } from "../templates/template-choice";
import { TemplatePicker } from "../templates/TemplatePicker";
import { templatesApi } from "../templates/templates-api";
import { beginNewConversation } from "./new-conversation";
import { ProviderModelFields } from "./ProviderModelFields";

const MODES: { id: ConversationMode; label: string }[] = [
  { id: "normal", label: "Normal" },
  { id: "graph", label: "Graph (builds a knowledge graph)" },
  { id: "tools", label: "Tools first" },
];

export function NewConversationForm(props: {
  providers: ProviderInfo[];
  onCreated: (c: Conversation) => void;
  onCancel: () => void;
}) {
  const first = props.providers.find((p) => p.configured) ?? props.providers[0];
  const [provider, setProvider] = useState(first?.id ?? "");
  const [model, setModel] = useState(first?.defaultModel ?? "");
  const [mode, setMode] = useState<ConversationMode>("normal");
  const [title, setTitle] = useState("");
  const [templates, setTemplates] = useState<Template[]>([]);
  const [templateId, setTemplateId] = useState("");

  useEffect(() => {
    let live = true;
    // Without templates the form still works: the picker just stays empty.
    templatesApi
      .list()
      .then((list) => live && setTemplates(list.items))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  const pickTemplate = (template: Template | null) => {
    setTemplateId(template?.id ?? "");
    if (!template) return;
    const fields = fieldsFromTemplate(template, props.providers, { provider, model, mode });
    setProvider(fields.provider);
    setModel(fields.model);
    setMode(fields.mode);
  };

  // Nothing to wait for: the conversation opens at once, and its first socket creates it.
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onCreated(
      beginNewConversation({
        ...(title.trim() && { title: title.trim() }),
        ...(templateId && { templateId }),
        ...(provider && { provider }),
        ...(model.trim() && { model: model.trim() }),
        mode,
      }),
    );
  };

  return (
    <form className="new-conversation" aria-label="New conversation" onSubmit={submit}>
      <label>
        Title
        <input
          value={title}
          placeholder="New conversation"
          onChange={(e) => setTitle(e.target.value)}
        />
      </label>
      <TemplatePicker templates={templates} selectedId={templateId} onSelect={pickTemplate} />
      <ProviderModelFields
        providers={props.providers}
        provider={provider}
        model={model}
        onChange={(p, m) => {
          setProvider(p);
          setModel(m);
        }}
      />
      <label>
        Mode
        <select
          aria-label="Mode"
          value={mode}
          onChange={(e) => setMode(e.target.value as ConversationMode)}
        >
          {MODES.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label}
            </option>
          ))}
        </select>
      </label>
      <div className="row">
        <button type="submit" className="primary">
          Create
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
