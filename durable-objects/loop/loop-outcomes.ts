// How a loop ends other than with an answer: cancelled, failed, or stopped by a budget.
import type { ErrorInfo } from "../protocol/wire";
import type { BudgetStop } from "./budgets";
import { finalContent } from "./shown-content";
import type { LoopDeps, LoopOutcome, LoopState } from "./types";

/** A budget ends the loop: the user sees why in the timeline now and in the answer. */
export function stopFor(deps: LoopDeps, state: LoopState, stop: BudgetStop): void {
  // A turn resumed after it stopped has said so already.
  if (!state.stoppedBy) deps.emit({ type: "notice", level: "info", message: stop.message });
  state.stoppedBy = stop;
}

export function cancelled(state: LoopState): LoopOutcome {
  return { content: finalContent(state), status: "cancelled" };
}

export function failed(state: LoopState, error: ErrorInfo): LoopOutcome {
  return { content: finalContent(state), status: "failed", error };
}
