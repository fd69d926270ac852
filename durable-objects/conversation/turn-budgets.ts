// A turn's budgets: the conversation's settings.budgets, each one falling back to the operator's
// default (TURN_BUDGET_TOKENS, TURN_BUDGET_COST_USD, TURN_BUDGET_SECONDS).
import type { Env } from "../../shared/env";
import type { TurnBudgets } from "../loop/budgets";
import type { TurnBudgetSettings } from "../protocol/conversation-settings";

type BudgetEnv = Pick<Env, "TURN_BUDGET_TOKENS" | "TURN_BUDGET_COST_USD" | "TURN_BUDGET_SECONDS">;

/** A positive number from a variable; anything else means "no default" (and is logged). */
function positive(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const n = Number(value);
  if (Number.isFinite(n) && n > 0) return n;
  console.error(
    JSON.stringify({
      level: "error",
      event: "config",
      message: `${name} must be a positive number; it is ignored.`,
    }),
  );
  return undefined;
}

export function turnBudgets(env: BudgetEnv, settings: TurnBudgetSettings | undefined): TurnBudgets {
  const tokens = settings?.tokens ?? positive("TURN_BUDGET_TOKENS", env.TURN_BUDGET_TOKENS);
  const costUsd = settings?.costUsd ?? positive("TURN_BUDGET_COST_USD", env.TURN_BUDGET_COST_USD);
  const seconds = settings?.seconds ?? positive("TURN_BUDGET_SECONDS", env.TURN_BUDGET_SECONDS);
  return {
    ...(tokens !== undefined && { tokens }),
    ...(costUsd !== undefined && { costUsd }),
    ...(seconds !== undefined && { wallMs: seconds * 1000 }),
  };
}
