// This conversation: provider, model and step limit. The provider can change mid-conversation
// (the history is converted for the new one); unconfigured providers can be picked but say so.
import { type FormEvent, useId, useState } from "react";
import type { Conversation, ProviderInfo } from "../../../durable-objects/protocol/rest";
import { ApiFailure } from "../api";
import { ProviderModelFields } from "../conversations/ProviderModelFields";
import { DEFAULT_STEP_LIMIT, parseStepLimit } from "./settings-state";
import type { SaveConversation } from "./use-conversation-saver";

export function ConversationSection(props: {
  conversation: Conversation;
  providers: ProviderInfo[];
  save: SaveConversation;
}) {
  const { conversation, providers } = props;
  const [provider, setProvider] = useState(conversation.provider);
  const [model, setModel] = useState(conversation.model);
  const [steps, setSteps] = useState(String(conversation.settings.maxSteps ?? DEFAULT_STEP_LIMIT));
  const [status, setStatus] = useState<{ error: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const headingId = useId();
  const chosen = providers.find((p) => p.id === provider);
  // A conversation may use a provider this list no longer offers; keep it selectable.
  const options = providers.some((p) => p.id === provider)
    ? providers
    : [{ id: provider, configured: false, defaultModel: model, models: [] }, ...providers];

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const limit = parseStepLimit(steps);
    if (!limit.ok) return setStatus({ error: true, text: limit.error });
    if (!model.trim()) return setStatus({ error: true, text: "Choose a model." });
    setBusy(true);
    setStatus(null);
    try {
      await props.save((current) => ({
        provider,
        model: model.trim(),
        settings: { ...current.settings, maxSteps: limit.value },
      }));
      setStatus({
        error: false,
        text: chosen && !chosen.configured ? `Saved. ${provider} is not configured yet.` : "Saved.",
      });
    } catch (err) {
      setStatus({
        error: true,
        text: err instanceof ApiFailure ? err.message : "Could not save the settings.",
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="settings-section" aria-labelledby={headingId}>
      <h3 id={headingId}>This conversation</h3>
      <form className="settings-form" noValidate onSubmit={submit}>
        <ProviderModelFields
          providers={options}
          provider={provider}
          model={model}
          onChange={(p, m) => {
            setProvider(p);
            setModel(m);
          }}
        />
        <label>
          Step limit
          <input
            type="number"
            min={1}
            max={20}
            step={1}
            value={steps}
            onChange={(e) => setSteps(e.target.value)}
          />
        </label>
        <div className="row">
          <button type="submit" className="primary" disabled={busy}>
            Save
          </button>
          {status && (
            <p
              role={status.error ? "alert" : "status"}
              className={status.error ? "error small" : "muted small"}
            >
              {status.text}
            </p>
          )}
        </div>
      </form>
    </section>
  );
}
