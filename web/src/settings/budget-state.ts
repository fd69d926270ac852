// The per-turn budgets form as pure functions: the draft a conversation's settings give, and the
// settings a draft makes, checked by the rules the API applies (TurnBudgetSettings).
import {
  type ConversationSettings,
  TurnBudgetSettings,
} from "../../../durable-objects/protocol/conversation-settings";

/** What the three fields hold, as typed; empty: no budget of that kind from this conversation. */
export interface BudgetDraft {
  tokens: string;
  costUsd: string;
  seconds: string;
}

export const budgetDraftOf = (settings: ConversationSettings): BudgetDraft => ({
  tokens: settings.budgets?.tokens?.toString() ?? "",
  costUsd: settings.budgets?.costUsd?.toString() ?? "",
  seconds: settings.budgets?.seconds?.toString() ?? "",
});

const RULES: Record<keyof BudgetDraft, string> = {
  tokens: "The token budget is a whole number of tokens, at least 1.",
  costUsd: "The cost budget is an amount in US dollars above 0, such as 0.05.",
  seconds: "The time budget is a whole number of seconds, from 1 to 86,400 (a day).",
};

type Checked = { ok: true; value: ConversationSettings } | { ok: false; error: string };

/** `settings` with the draft's budgets, or what to fix; all empty removes the budgets. */
export function budgetSettings(draft: BudgetDraft, settings: ConversationSettings): Checked {
  const budgets: Record<string, number> = {};
  for (const key of Object.keys(RULES) as Array<keyof BudgetDraft>) {
    const text = draft[key].trim();
    if (text === "") continue;
    const n = Number(text);
    if (!Number.isFinite(n)) return { ok: false, error: RULES[key] };
    budgets[key] = n;
  }
  const parsed = TurnBudgetSettings.safeParse(budgets);
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path[0] as keyof BudgetDraft | undefined;
    return { ok: false, error: field ? RULES[field] : "Check the budgets." };
  }
  const { budgets: _old, ...rest } = settings;
  return {
    ok: true,
    value: Object.keys(parsed.data).length > 0 ? { ...rest, budgets: parsed.data } : rest,
  };
}
