// Budgets per turn: the tokens, dollars and seconds one answer may spend. A turn about to pass one
// stops calling tools and answers with what it has (durable-objects/loop/budgets.ts); an empty
// field leaves that budget to the deployment's default.
import { type FormEvent, useId, useState } from "react";
import type { Conversation } from "../../../durable-objects/protocol/rest";
import { type BudgetDraft, budgetDraftOf, budgetSettings } from "./budget-state";
import { SaveRow } from "./SaveRow";
import type { SaveConversation } from "./use-conversation-saver";
import { useSaving } from "./use-saving";

const FIELDS: Array<[keyof BudgetDraft, string, "numeric" | "decimal"]> = [
  ["tokens", "Tokens", "numeric"],
  ["costUsd", "Cost (US$)", "decimal"],
  ["seconds", "Time (seconds)", "numeric"],
];

export function BudgetSection(props: { conversation: Conversation; save: SaveConversation }) {
  const [draft, setDraft] = useState<BudgetDraft>(() => budgetDraftOf(props.conversation.settings));
  const { status, busy, run, refuse } = useSaving("Could not save the budgets.");
  const headingId = useId();
  const change = (next: Partial<BudgetDraft>) => setDraft((d) => ({ ...d, ...next }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const checked = budgetSettings(draft, props.conversation.settings);
    if (!checked.ok) return refuse(checked.error);
    await run(async () => {
      // Applied to the settings as they are when the save runs, so other sections' saves stay.
      await props.save((current) => {
        const merged = budgetSettings(draft, current.settings);
        return { settings: merged.ok ? merged.value : checked.value };
      });
      return "Saved. The next answer keeps to these budgets.";
    });
  };

  return (
    <section className="settings-section" aria-labelledby={headingId}>
      <h3 id={headingId}>Budgets per answer</h3>
      <p className="muted small" id={`${headingId}-about`}>
        What one answer may spend. About to pass a budget, it stops calling tools and answers with
        what it has found, saying which budget stopped it. Empty: the deployment&apos;s default, if
        it sets one.
      </p>
      <form
        className="settings-form"
        noValidate
        onSubmit={submit}
        aria-describedby={`${headingId}-about`}
      >
        {FIELDS.map(([key, label, inputMode]) => (
          <label key={key}>
            {label}
            <input
              inputMode={inputMode}
              value={draft[key]}
              placeholder="no limit"
              onChange={(e) => change({ [key]: e.target.value })}
            />
          </label>
        ))}
        <SaveRow label="Save budgets" busy={busy} status={status} />
      </form>
    </section>
  );
}
