// The operator's default budgets: a malformed one is ignored and said once, not on every turn.
import { afterEach, expect, it, vi } from "vitest";
import { turnBudgets } from "./turn-budgets";

afterEach(() => vi.restoreAllMocks());

it("takes the conversation's budgets over the operator's, and says once that a malformed one is ignored", () => {
  const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
  const env = { TURN_BUDGET_TOKENS: "5k", TURN_BUDGET_COST_USD: "0.5", TURN_BUDGET_SECONDS: "" };
  for (let turn = 0; turn < 3; turn++)
    expect(turnBudgets(env, undefined)).toEqual({ costUsd: 0.5 });
  expect(turnBudgets(env, { tokens: 900, seconds: 30 })).toEqual({
    tokens: 900,
    costUsd: 0.5,
    wallMs: 30_000,
  });
  expect(logged).toHaveBeenCalledTimes(1);
  expect(String(logged.mock.calls[0]?.[0])).toContain(
    "TURN_BUDGET_TOKENS must be a positive number",
  );
});
