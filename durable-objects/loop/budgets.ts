// Per-turn budgets: tokens, cost, wall time (and the step cap). Before each new step the loop
// asks whether a budget is nearly spent: already used up, or another step like the last one
// would pass it (for tokens and cost, another step and then the wrap-up call, each like the last
// step: stopping later would leave no room for the answer). Then it calls no more tools and
// forces the response_formatter with what it has, and the answer ends with a line saying which
// budget ended the turn, with the figures once the wrap-up is counted.
import type { MessagePart } from "../protocol/messages";
import { costOf, priceOf } from "./prices";
import type { LoopDeps, LoopState } from "./types";

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
  /** The notice sent when the loop stops, with what was spent so far. */
  message: string;
  /** The budget's limit (tokens, USD, ms); absent in checkpoints written before it was kept. */
  limit?: number;
  /** What was spent when the loop stopped (the time budget's answer line says it). */
  used?: number;
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

/** The first call's estimated input: its tokens and, for a priced model, their cost. */
export interface FirstCallEstimate {
  tokens: number;
  costUsd: number | null;
}

/** The first call's estimate from the fitted history's count (none without a context fitter). */
export function firstCallEstimate(
  deps: Pick<LoopDeps, "prices">,
  model: string,
  fitted: { inputTokens?: number } | null,
): FirstCallEstimate | undefined {
  const tokens = fitted?.inputTokens;
  if (tokens === undefined) return undefined;
  const price = deps.prices ? priceOf(deps.prices, model) : null;
  return {
    tokens,
    costUsd: costOf(price, { inputTokens: tokens, outputTokens: 0, cachedTokens: 0 }),
  };
}

/**
 * Before the first step there is no step to project from: the first call's estimated input
 * stands in for it. A budget smaller than that one call fails the turn before the model is
 * asked, saying what to change (the wrap-up alone would pass it).
 */
export function firstCallOverBudget(
  budgets: TurnBudgets | undefined,
  first: FirstCallEstimate | undefined,
): { code: string; message: string } | null {
  if (!budgets || !first) return null;
  const fix = "Raise the budget in the conversation's settings, or start a new conversation.";
  if (budgets.tokens !== undefined && first.tokens >= budgets.tokens)
    return {
      code: "budget_too_small",
      message:
        `This turn's token budget (${count(budgets.tokens)} tokens) is smaller than one model call ` +
        `with this conversation (about ${count(first.tokens)} tokens of prompt, tools and history). ${fix}`,
    };
  if (budgets.costUsd !== undefined && first.costUsd !== null && first.costUsd >= budgets.costUsd)
    return {
      code: "budget_too_small",
      message:
        `This turn's cost budget (${usd(budgets.costUsd)}) is smaller than one model call with ` +
        `this conversation (about ${usd(first.costUsd)} for its prompt, tools and history). ${fix}`,
    };
  return null;
}

/**
 * The budget nearly spent before a new step, if any. `first`, the first call's estimated input,
 * projects the first step: when it and the wrap-up would not both fit, the model answers at
 * once, without tools.
 */
export function budgetStop(
  budgets: TurnBudgets | undefined,
  state: LoopState,
  first?: FirstCallEstimate,
): BudgetStop | null {
  if (!budgets) return null;
  const now = spentOf(state);
  const last = state.stepStart;
  if (last === undefined && first) {
    if (budgets.tokens !== undefined && now.tokens + 2 * first.tokens >= budgets.tokens)
      return {
        budget: "tokens",
        limit: budgets.tokens,
        used: now.tokens,
        message: `Answering without tools to stay within this turn's token budget (a model call with this conversation takes about ${count(first.tokens)} of its ${count(budgets.tokens)} tokens).`,
      };
    if (
      budgets.costUsd !== undefined &&
      first.costUsd !== null &&
      now.costUsd + 2 * first.costUsd >= budgets.costUsd
    )
      return {
        budget: "cost",
        limit: budgets.costUsd,
        used: now.costUsd,
        message: `Answering without tools to stay within this turn's cost budget (a model call with this conversation costs about ${usd(first.costUsd)} of its ${usd(budgets.costUsd)}).`,
      };
  }
  /**
   * What the turn would have spent after `steps` more like the last one. Tokens and cost count
   * two (one more step, then the wrap-up call a stopped turn makes); time counts one, since the
   * last step's time is mostly its tools', and then the wrap-up as long as the longest call yet.
   */
  const next = (used: number, before: number | undefined, steps: number) =>
    used + (before === undefined ? 0 : steps * Math.max(0, used - before));
  if (budgets.tokens !== undefined && next(now.tokens, last?.tokens, 2) >= budgets.tokens)
    return {
      budget: "tokens",
      limit: budgets.tokens,
      used: now.tokens,
      message: `Stopped early to stay within this turn's token budget (${count(now.tokens)} of ${count(budgets.tokens)} tokens used so far).`,
    };
  if (budgets.costUsd !== undefined && next(now.costUsd, last?.costUsd, 2) >= budgets.costUsd)
    return {
      budget: "cost",
      limit: budgets.costUsd,
      used: now.costUsd,
      message: `Stopped early to stay within this turn's cost budget (${usd(now.costUsd)} of ${usd(budgets.costUsd)} spent so far).`,
    };
  if (
    budgets.wallMs !== undefined &&
    next(now.elapsedMs, last?.elapsedMs, 1) + (state.longestCallMs ?? 0) >= budgets.wallMs
  )
    return {
      budget: "time",
      limit: budgets.wallMs,
      used: now.elapsedMs,
      message: `Stopped early to stay within this turn's time budget (${seconds(now.elapsedMs)} of ${seconds(budgets.wallMs)} used so far).`,
    };
  return null;
}

export function stepCapStop(maxSteps: number): BudgetStop {
  return {
    budget: "steps",
    message: `Stopped at this turn's step budget (${maxSteps} of ${maxSteps} steps taken).`,
  };
}

/**
 * The answer's closing line for the budget that stopped the turn: read once the answer is
 * written, so tokens and cost are the turn's whole spending, the wrap-up call included.
 */
function closingLine(state: LoopState, stop: BudgetStop): string {
  if (stop.limit === undefined) return stop.message;
  const now = spentOf(state);
  switch (stop.budget) {
    case "tokens":
      return `Stopped early to stay within this turn's token budget (${count(now.tokens)} of ${count(stop.limit)} tokens used, the final answer included).`;
    case "cost":
      return `Stopped early to stay within this turn's cost budget (${usd(now.costUsd)} of ${usd(stop.limit)} spent, the final answer included).`;
    case "time":
      return `Stopped early to stay within this turn's time budget (${seconds(stop.used ?? now.elapsedMs)} of ${seconds(stop.limit)} used before the final answer).`;
    case "steps":
      return stop.message;
  }
}

/** The answer, with the line that says which budget ended the turn when one did. */
export function withBudgetNote(state: LoopState, content: MessagePart[]): MessagePart[] {
  if (!state.stoppedBy) return content;
  return [...content, { type: "text", text: `_${closingLine(state, state.stoppedBy)}_` }];
}
