// Create or edit a template: name, description, system prompt (with variables), starting
// messages and the defaults a new conversation takes, its servers and tools included.
import { useId, useState } from "react";
import type { ProviderInfo } from "../../../durable-objects/protocol/rest";
import { TEMPLATE_VARIABLES } from "../../../durable-objects/protocol/templates";
import type { TemplateInput } from "../../../durable-objects/protocol/templates";
import { DialogFrame } from "../ui/dialog";
import { inputFromForm, MAX_STARTING_MESSAGES, type TemplateForm } from "./template-form";
import { TemplateServerFields } from "./TemplateServerFields";
import { ReasoningEffortOptions } from "../settings/ReasoningEffortOptions";

const VARIABLES = TEMPLATE_VARIABLES.map((v) => `{{${v}}}`).join(", ");

export function TemplateDialog(props: {
  title: string;
  initial: TemplateForm;
  providers: readonly ProviderInfo[];
  onSave: (input: TemplateInput) => Promise<void>;
  onCancel: () => void;
}) {
  const [form, setForm] = useState(props.initial);
  const set = (change: Partial<TemplateForm>) => setForm((f) => ({ ...f, ...change }));
  const promptHelp = useId();
  const setMessage = (i: number, change: Partial<TemplateForm["messages"][number]>) =>
    set({ messages: form.messages.map((m, j) => (j === i ? { ...m, ...change } : m)) });

  return (
    <DialogFrame
      title={props.title}
      submitLabel="Save template"
      onCancel={props.onCancel}
      onSubmit={async () => {
        const input = inputFromForm(form);
        if (typeof input === "string") throw new Error(input);
        await props.onSave(input);
      }}
    >
      <label>
        Name
        <input value={form.name} autoFocus onChange={(e) => set({ name: e.target.value })} />
      </label>
      <label>
        Description
        <input value={form.description} onChange={(e) => set({ description: e.target.value })} />
      </label>
      <label>
        System prompt
        <textarea
          rows={5}
          aria-describedby={promptHelp}
          value={form.systemPrompt}
          onChange={(e) => set({ systemPrompt: e.target.value })}
        />
      </label>
      <span id={promptHelp} className="muted small">
        Variables filled for each request: {VARIABLES}.
      </span>
      <fieldset>
        <legend>Starting messages</legend>
        {form.messages.map((m, i) => (
          <div key={i} className="row">
            <select
              aria-label={`Message ${i + 1} role`}
              value={m.role}
              onChange={(e) => setMessage(i, { role: e.target.value as "user" | "assistant" })}
            >
              <option value="user">User</option>
              <option value="assistant">Assistant</option>
            </select>
            <textarea
              aria-label={`Message ${i + 1}`}
              rows={2}
              value={m.content}
              onChange={(e) => setMessage(i, { content: e.target.value })}
            />
            <button
              type="button"
              onClick={() => set({ messages: form.messages.filter((_, j) => j !== i) })}
            >
              Remove
            </button>
          </div>
        ))}
        {form.messages.length < MAX_STARTING_MESSAGES && (
          <button
            type="button"
            onClick={() => set({ messages: [...form.messages, { role: "user", content: "" }] })}
          >
            Add message
          </button>
        )}
      </fieldset>
      <fieldset>
        <legend>Defaults</legend>
        <label>
          Provider
          <select
            aria-label="Default provider"
            value={form.provider}
            // The options are the providers' own ids, or "".
            onChange={(e) => set({ provider: e.target.value as TemplateForm["provider"] })}
          >
            <option value="">Usual</option>
            {props.providers.map((p) => (
              <option key={p.id} value={p.id}>
                {p.id}
              </option>
            ))}
          </select>
        </label>
        {form.provider && (
          <label>
            Model
            <input
              value={form.model}
              placeholder={props.providers.find((p) => p.id === form.provider)?.defaultModel}
              onChange={(e) => set({ model: e.target.value })}
            />
          </label>
        )}
        <label>
          Mode
          <select
            aria-label="Default mode"
            value={form.mode}
            onChange={(e) => set({ mode: e.target.value as TemplateForm["mode"] })}
          >
            <option value="">Usual</option>
            <option value="normal">Normal</option>
            <option value="graph">Graph</option>
            <option value="tools">Tools first</option>
          </select>
        </label>
        <label>
          Reasoning
          <select
            aria-label="Default reasoning"
            value={form.reasoningEffort}
            onChange={(e) =>
              set({ reasoningEffort: e.target.value as TemplateForm["reasoningEffort"] })
            }
          >
            <ReasoningEffortOptions />
          </select>
        </label>
        <label>
          Step limit
          <input
            inputMode="numeric"
            value={form.maxSteps}
            placeholder="Usual"
            onChange={(e) => set({ maxSteps: e.target.value })}
          />
        </label>
      </fieldset>
      <TemplateServerFields value={form.servers} onChange={(servers) => set({ servers })} />
    </DialogFrame>
  );
}
