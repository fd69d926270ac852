// Per-turn budgets: tokens, cost, wall time (and the step cap). Before each new step the loop
// asks whether a budget is nearly spent: already used up, or another step like the last one
// would pass it. Then it calls no more tools and forces the response_formatter with what it
// has, and the answer ends with a line saying which budget ended the turn.
import type { MessagePart } from "../protocol/messages";
import type { LoopState } from "./types";

export interface TurnBudgets {
  /** Input plus output tokens of every model call of the turn. */
  tokens?: number;
  /** USD; only calls whose model has a price count (an unpriced model cannot be held to it). */
  costUsd?: number;
  /** Time the turn runs, waits for approvals excluded. */
  wallMs?: number;
}

export type BudgetName = "tokens" | "cost" | "time" | "steps";

export interface BudgetStop {
  budget: BudgetName;
  message: string;
}

interface Spent {
  tokens: number;
  costUsd: number;
  elapsedMs: number;
}

const count = (n: number) => Math.round(n).toLocaleString("en-US");
const usd = (n: number) => `$${n.toFixed(4)}`;
const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

function spentOf(state: LoopState): Spent {
  const u = state.usage;
  return {
    tokens: u ? u.inputTokens + u.outputTokens : 0,
    costUsd: u?.costUsd ?? 0,
    elapsedMs: state.elapsedMs ?? 0,
  };
}

/**
 * The turn's run time across runs: a turn parked for approval resumes in a new run, and the
 * hours it waited are not its own.
 */
export function turnClock(state: LoopState, now: () => number) {
  const base = state.elapsedMs ?? 0;
  const started = now();
  return {
    /** Writes the time run so far into the state (checkpointed with it). */
    sync: () => {
      state.elapsedMs = base + now() - started;
    },
  };
}

/** Marks what was spent when a step began: the next check projects from that step's cost. */
export function markStepStart(state: LoopState): void {
  state.stepStart = spentOf(state);
}

/** The budget nearly spent before a new step, if any. */
export function budgetStop(budgets: TurnBudgets | undefined, state: LoopState): BudgetStop | null {
  if (!budgets) return null;
  const now = spentOf(state);
  const last = state.stepStart;
  const next = (used: number, before: number | undefined) =>
    used + (before === undefined ? 0 : Math.max(0, used - before));
  if (budgets.tokens !== undefined && next(now.tokens, last?.tokens) >= budgets.tokens)
    return {
      budget: "tokens",
      message: `Stopped early to stay within this turn's token budget (${count(now.tokens)} of ${count(budgets.tokens)} tokens used).`,
    };
  if (budgets.costUsd !== undefined && next(now.costUsd, last?.costUsd) >= budgets.costUsd)
    return {
      budget: "cost",
      message: `Stopped early to stay within this turn's cost budget (${usd(now.costUsd)} of ${usd(budgets.costUsd)} spent).`,
    };
  if (budgets.wallMs !== undefined && next(now.elapsedMs, last?.elapsedMs) >= budgets.wallMs)
    return {
      budget: "time",
      message: `Stopped early to stay within this turn's time budget (${seconds(now.elapsedMs)} of ${seconds(budgets.wallMs)} used).`,
    };
  return null;
}

export function stepCapStop(maxSteps: number): BudgetStop {
  return {
    budget: "steps",
    message: `Stopped at this turn's step budget (${maxSteps} of ${maxSteps} steps taken).`,
  };
}

/** The answer, with the line that says which budget ended the turn when one did. */
export function withBudgetNote(state: LoopState, content: MessagePart[]): MessagePart[] {
  if (!state.stoppedBy) return content;
  return [...content, { type: "text", text: `_${state.stoppedBy.message}_` }];
}
