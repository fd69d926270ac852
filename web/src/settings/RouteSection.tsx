// This conversation's route: the primary model (chosen above) and an ordered list of fallbacks
// a step moves to when a model is down or keeps sending unusable tool calls; "local first"
// (tool steps on Ollama, the answer in the cloud); how long a model may stay silent.
import { type FormEvent, useId, useState } from "react";
import type { Conversation, ProviderInfo } from "../../../durable-objects/protocol/rest";
import { modelName } from "../chat/StepModels";
import { draftOf, MAX_FALLBACKS, moved, type RouteDraft, routeSettings } from "./route-state";
import { SaveRow } from "./SaveRow";
import type { SaveConversation } from "./use-conversation-saver";
import { useSaving } from "./use-saving";

export function RouteSection(props: {
  conversation: Conversation;
  providers: ProviderInfo[];
  save: SaveConversation;
}) {
  const { conversation, providers } = props;
  const [draft, setDraft] = useState<RouteDraft>(() => draftOf(conversation.settings));
  const { status, busy, run, refuse } = useSaving("Could not save the route.");
  const headingId = useId();
  const modelsId = useId();
  const change = (next: Partial<RouteDraft>) => setDraft((d) => ({ ...d, ...next }));
  const setFallback = (i: number, f: { provider: string; model: string }) =>
    change({ fallbacks: draft.fallbacks.map((x, j) => (j === i ? f : x)) });
  const fallbackProvider =
    providers.find((p) => p.configured && p.id !== conversation.provider) ?? providers[0];

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const checked = routeSettings(draft, conversation);
    if (!checked.ok) return refuse(checked.error);
    await run(async () => {
      await props.save((current) => ({ settings: { ...current.settings, ...checked.value } }));
      const unconfigured = checked.value.route
        ?.map((m) => m.provider)
        .filter((id) => providers.find((p) => p.id === id)?.configured === false);
      return unconfigured && unconfigured.length > 0
        ? `Saved. Not configured here, so skipped: ${[...new Set(unconfigured)].join(", ")}.`
        : "Saved.";
    });
  };

  return (
    <section className="settings-section" aria-labelledby={headingId}>
      <h3 id={headingId}>Routing</h3>
      <form className="settings-form route-form" noValidate onSubmit={submit}>
        <p className="muted small">
          Primary: <strong>{modelName(conversation)}</strong> (change it above). A step moves to the
          next fallback when a model is down, stays silent too long, or twice sends tool calls that
          cannot be used.
        </p>
        <ol className="route-fallbacks" aria-label="Fallbacks in order">
          {draft.fallbacks.map((f, i) => (
            <li key={i} className="row">
              <select
                aria-label={`Fallback ${i + 1} provider`}
                value={f.provider}
                onChange={(e) =>
                  setFallback(i, {
                    provider: e.target.value,
                    model: providers.find((p) => p.id === e.target.value)?.defaultModel ?? "",
                  })
                }
              >
                {providers.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.id}
                    {p.configured ? "" : " (not configured)"}
                  </option>
                ))}
              </select>
              <input
                aria-label={`Fallback ${i + 1} model`}
                list={`${modelsId}-${f.provider}`}
                value={f.model}
                onChange={(e) => setFallback(i, { ...f, model: e.target.value })}
              />
              <button
                type="button"
                aria-label={`Move fallback ${i + 1} up`}
                disabled={i === 0}
                onClick={() => change({ fallbacks: moved(draft.fallbacks, i, -1) })}
              >
                ↑
              </button>
              <button
                type="button"
                aria-label={`Move fallback ${i + 1} down`}
                disabled={i === draft.fallbacks.length - 1}
                onClick={() => change({ fallbacks: moved(draft.fallbacks, i, 1) })}
              >
                ↓
              </button>
              <button
                type="button"
                aria-label={`Remove fallback ${i + 1}`}
                onClick={() => change({ fallbacks: draft.fallbacks.filter((_, j) => j !== i) })}
              >
                Remove
              </button>
            </li>
          ))}
        </ol>
        {providers.map((p) => (
          <datalist key={p.id} id={`${modelsId}-${p.id}`}>
            {p.models.map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>
        ))}
        {fallbackProvider && (
          <button
            type="button"
            disabled={draft.fallbacks.length >= MAX_FALLBACKS}
            onClick={() =>
              change({
                fallbacks: [
                  ...draft.fallbacks,
                  { provider: fallbackProvider.id, model: fallbackProvider.defaultModel },
                ],
              })
            }
          >
            Add fallback
          </button>
        )}
        <label className="checkbox">
          <input
            type="checkbox"
            checked={draft.localFirst}
            onChange={(e) => change({ localFirst: e.target.checked })}
          />
          Local first: steps that call tools go to Ollama, the answer to a cloud model
        </label>
        <label>
          Seconds a model may stay silent before the step falls back
          <input
            type="number"
            min={1}
            max={600}
            step={1}
            value={draft.timeout}
            onChange={(e) => change({ timeout: e.target.value })}
          />
        </label>
        <SaveRow label="Save route" busy={busy} status={status} />
      </form>
    </section>
  );
}
