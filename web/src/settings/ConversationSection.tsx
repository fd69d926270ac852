// This conversation: provider, model, reasoning effort and step limit. The provider can change
// mid-conversation (the history is converted for the new one); unconfigured providers cannot be
// picked, except the conversation's own, which says so.
import { type FormEvent, useId, useState } from "react";
import type { ReasoningEffort } from "../../../durable-objects/protocol/conversation-settings";
import type { Conversation, ProviderInfo } from "../../../durable-objects/protocol/rest";
import { takesReasoningEffort } from "../../../durable-objects/providers/effort-support";
import { ProviderModelFields } from "../conversations/ProviderModelFields";
import { DEFAULT_STEP_LIMIT, parseStepLimit } from "./settings-state";
import { SaveRow } from "./SaveRow";
import type { SaveConversation } from "./use-conversation-saver";
import { useSaving } from "./use-saving";
import { ReasoningEffortOptions } from "./ReasoningEffortOptions";

export function ConversationSection(props: {
  conversation: Conversation;
  providers: ProviderInfo[];
  save: SaveConversation;
}) {
  const { conversation, providers } = props;
  const [provider, setProvider] = useState(conversation.provider);
  const [model, setModel] = useState(conversation.model);
  const [steps, setSteps] = useState(String(conversation.settings.maxSteps ?? DEFAULT_STEP_LIMIT));
  const [effort, setEffort] = useState<ReasoningEffort | "">(
    conversation.settings.reasoningEffort ?? "",
  );
  const { status, busy, run, refuse } = useSaving("Could not save the settings.");
  const headingId = useId();
  const chosen = providers.find((p) => p.id === provider);
  // A conversation may use a provider this list no longer offers; keep it selectable.
  const options = providers.some((p) => p.id === provider)
    ? providers
    : [{ id: provider, configured: false, defaultModel: model, models: [] }, ...providers];

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const limit = parseStepLimit(steps);
    if (!limit.ok) return refuse(limit.error);
    if (!model.trim()) return refuse("Choose a model.");
    await run(async () => {
      await props.save((current) => {
        const { reasoningEffort: _, ...settings } = current.settings;
        return {
          provider,
          model: model.trim(),
          settings: {
            ...settings,
            maxSteps: limit.value,
            ...(effort && { reasoningEffort: effort }),
          },
        };
      });
      return chosen && !chosen.configured ? `Saved. ${provider} is not configured yet.` : "Saved.";
    });
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
        {/* A model that ignores the effort (gpt-4.1) is not offered one: it would change nothing. */}
        {takesReasoningEffort(provider, model.trim(), chosen) && (
          <>
            <label>
              Reasoning
              <select
                value={effort}
                onChange={(e) => setEffort(e.target.value as ReasoningEffort | "")}
                aria-describedby={`${headingId}-reasoning`}
              >
                <ReasoningEffortOptions />
              </select>
            </label>
            <p className="muted small" id={`${headingId}-reasoning`}>
              How hard the model reasons before it answers: more effort, more tokens. Claude 4.6 and
              earlier think only when this is set.
            </p>
          </>
        )}
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
        <SaveRow label="Save" busy={busy} status={status} />
      </form>
    </section>
  );
}
