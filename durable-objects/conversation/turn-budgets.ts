// A turn's budgets: the conversation's settings.budgets, each one falling back to the operator's
// default (TURN_BUDGET_TOKENS, TURN_BUDGET_COST_USD, TURN_BUDGET_SECONDS).
import type { Env } from "../../shared/env";
import { positiveSetting } from "../../shared/positive-setting";
import type { TurnBudgets } from "../loop/budgets";
import type { TurnBudgetSettings } from "../protocol/conversation-settings";

type BudgetEnv = Pick<Env, "TURN_BUDGET_TOKENS" | "TURN_BUDGET_COST_USD" | "TURN_BUDGET_SECONDS">;

export function turnBudgets(env: BudgetEnv, settings: TurnBudgetSettings | undefined): TurnBudgets {
  const tokens = settings?.tokens ?? positiveSetting("TURN_BUDGET_TOKENS", env.TURN_BUDGET_TOKENS);
  const costUsd =
    settings?.costUsd ?? positiveSetting("TURN_BUDGET_COST_USD", env.TURN_BUDGET_COST_USD);
  const seconds =
    settings?.seconds ?? positiveSetting("TURN_BUDGET_SECONDS", env.TURN_BUDGET_SECONDS);
  return {
    ...(tokens !== undefined && { tokens }),
    ...(costUsd !== undefined && { costUsd }),
    ...(seconds !== undefined && { wallMs: seconds * 1000 }),
  };
}
