// Titles and summaries: which model writes them (automatic picks the cheap model of the first
// configured provider) and how full the context window gets before older messages are summarised.
import { type FormEvent, useId, useState } from "react";
import type { Conversation, ProviderInfo } from "../../../durable-objects/protocol/rest";
import {
  AUTOMATIC,
  type HousekeepingDraft,
  housekeepingDraftOf,
  housekeepingSettings,
  SUMMARY_THRESHOLD,
} from "./housekeeping-state";
import { SaveRow } from "./SaveRow";
import type { SaveConversation } from "./use-conversation-saver";
import { useSaving } from "./use-saving";

export function HousekeepingSection(props: {
  conversation: Conversation;
  providers: ProviderInfo[];
  save: SaveConversation;
}) {
  const { providers } = props;
  const [draft, setDraft] = useState<HousekeepingDraft>(() =>
    housekeepingDraftOf(props.conversation.settings),
  );
  const { status, busy, run, refuse } = useSaving("Could not save the settings.");
  const headingId = useId();
  const modelsId = useId();
  const change = (next: Partial<HousekeepingDraft>) => setDraft((d) => ({ ...d, ...next }));
  const chosen = providers.find((p) => p.id === draft.provider);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const checked = housekeepingSettings(draft, props.conversation.settings);
    if (!checked.ok) return refuse(checked.error);
    await run(async () => {
      // Applied to the settings as they are when the save runs, so other sections' saves stay.
      await props.save((current) => {
        const merged = housekeepingSettings(draft, current.settings);
        return { settings: merged.ok ? merged.value : checked.value };
      });
      return chosen && !chosen.configured
        ? `Saved. ${chosen.id} is not configured here, so the automatic model is used.`
        : "Saved.";
    });
  };

  return (
    <section className="settings-section" aria-labelledby={headingId}>
      <h3 id={headingId}>Titles and summaries</h3>
      <form className="settings-form" noValidate onSubmit={submit}>
        <label>
          Written by
          <select
            aria-label="Titles and summaries provider"
            value={draft.provider}
            onChange={(e) =>
              change({
                provider: e.target.value,
                model:
                  e.target.value === AUTOMATIC
                    ? ""
                    : (providers.find((p) => p.id === e.target.value)?.defaultModel ?? ""),
              })
            }
          >
            <option value={AUTOMATIC}>Automatic (a cheap model)</option>
            {providers.map((p) => (
              <option key={p.id} value={p.id}>
                {p.id}
                {p.configured ? "" : " (not configured)"}
              </option>
            ))}
          </select>
        </label>
        {draft.provider !== AUTOMATIC && (
          <label>
            Model
            <input
              aria-label="Titles and summaries model"
              list={modelsId}
              value={draft.model}
              onChange={(e) => change({ model: e.target.value })}
            />
            <datalist id={modelsId}>
              {chosen?.models.map((m) => (
                <option key={m} value={m} />
              ))}
            </datalist>
          </label>
        )}
        <label>
          Summarise older messages past (% of the context window)
          <input
            aria-label="Summary threshold"
            type="number"
            min={SUMMARY_THRESHOLD.min}
            max={SUMMARY_THRESHOLD.max}
            step={1}
            placeholder={String(SUMMARY_THRESHOLD.default)}
            value={draft.threshold}
            onChange={(e) => change({ threshold: e.target.value })}
          />
        </label>
        <SaveRow label="Save titles and summaries" busy={busy} status={status} />
      </form>
    </section>
  );
}
