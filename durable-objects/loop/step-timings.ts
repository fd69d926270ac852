// The step clock: wraps what the loop calls (the model stream, the MCP tools, the checkpoint) to
// time each phase of a step, and emits `step_timings` when the step ends. The step's figures so
// far ride in the loop state, so a step parked at an approval (or cut by a restart) goes on
// counting from its checkpoint, and the wait shows as `pausedMs`.
import { z } from "zod";
import {
  type ModelCallTimings,
  type ModelRetry,
  type ServerLatency,
  StepTimings,
  type ToolCallTimings,
} from "../protocol/timings";
import type { StreamEvent } from "../providers/types";
import type { LoopDeps, LoopInput, LoopOutcome, LoopState } from "./types";
import { runnerHooks } from "./runner-hooks";

/** A step being timed: its figures so far, kept in the checkpoint. */
export const StepTimingsDraft = StepTimings.omit({ servers: true, totalMs: true }).extend({
  startedAt: z.number(),
  /** When the last checkpoint was saved: a resume counts the time since as paused. */
  savedAt: z.number().optional(),
});
export type StepTimingsDraft = z.infer<typeof StepTimingsDraft>;

/** Events that show the model has started answering. */
const FIRST_TOKEN: ReadonlySet<StreamEvent["type"]> = new Set([
  "text_delta",
  "reasoning_delta",
  "tool_call",
]);

export interface StepTimerOptions {
  now?: () => number;
  /** When the user sent the message the turn answers (for `queuedMs`). */
  queuedSince?: number;
}

export class StepTimer {
  private readonly now: () => number;
  private readonly queuedSince: number | undefined;
  private state: LoopState | null = null;
  /** Turn phases before the first step (queued, tool catalog), given to step 1. */
  private beforeFirstStep: Pick<StepTimingsDraft, "queuedMs" | "catalogMs"> = {};
  /** Retries of the model call running now, reported by the retry policy. */
  private retries: ModelRetry[] = [];

  constructor(options: StepTimerOptions = {}) {
    this.now = options.now ?? Date.now;
    this.queuedSince = options.queuedSince;
  }

  /** For the retry policy's `onRetry`: a model call is tried again after `waitMs`. */
  readonly retried = (attempt: number, waitMs: number, code: string): void => {
    this.retries.push({ attempt, waitMs, code });
  };

  /**
   * The loop's dependencies with every phase timed. `resumed`: the state comes from a checkpoint
   * (the step's figures so far are in it, and the turn was not queued just now).
   */
  instrument(deps: LoopDeps, input: LoopInput, state: LoopState, resumed: boolean): LoopDeps {
    this.state = state;
    const started = this.now();
    if (!resumed && this.queuedSince !== undefined)
      this.beforeFirstStep.queuedMs = Math.max(0, started - this.queuedSince);
    // Only a step stopped at its tool calls goes on: without pending calls the checkpointed step
    // either ended (its figures were sent) or is run again from its start. An unreadable draft
    // is dropped.
    const draft = state.pending && !state.final ? StepTimingsDraft.safeParse(state.timings) : null;
    state.timings = draft?.success ? draft.data : undefined;
    if (state.timings?.savedAt !== undefined)
      state.timings.pausedMs += Math.max(0, started - state.timings.savedAt);
    return {
      ...deps,
      stream: (provider, request, step) =>
        this.timedStream(deps.stream(provider, request, step), {
          provider: provider.id,
          model: request.model,
        }),
      tools: {
        catalog: async () => {
          const t0 = this.now();
          try {
            return await deps.tools.catalog();
          } finally {
            this.beforeFirstStep.catalogMs = this.now() - t0;
          }
        },
        ...runnerHooks(deps.tools),
        call: async (server, tool, args, hooks) => {
          const t0 = this.now();
          try {
            return await deps.tools.call(server, tool, args, hooks);
          } finally {
            const timing = { callId: hooks.callId, server, tool, latencyMs: this.now() - t0 };
            this.open().tools.push(timing);
          }
        },
      },
      checkpoint: (s) => {
        const t0 = this.now();
        if (s.timings) s.timings.savedAt = t0;
        deps.checkpoint(s);
        if (s.timings) s.timings.checkpointMs += this.now() - t0;
      },
      stepTimer: this,
    };
  }

  /** A step begins: its figures start from zero (the first step takes the turn's start-up). */
  stepStarted(state: LoopState): void {
    state.timings = {
      step: state.step,
      startedAt: this.now(),
      ...this.beforeFirstStep,
      model: [],
      tools: [],
      checkpointMs: 0,
      pausedMs: 0,
    };
    this.beforeFirstStep = {};
  }

  /** A step's tool calls are all answered: its timings go out. */
  stepEnded(deps: Pick<LoopDeps, "emit">, input: Pick<LoopInput, "turnId" | "messageId">): void {
    const draft = this.state?.timings;
    if (!this.state || !draft) return;
    this.state.timings = undefined;
    deps.emit({
      type: "step_timings",
      turnId: input.turnId,
      messageId: input.messageId,
      timings: finished(draft, this.now()),
    });
  }

  /** The turn stopped: the last step's timings go out, unless it is parked (it goes on later). */
  turnEnded(
    deps: Pick<LoopDeps, "emit">,
    input: Pick<LoopInput, "turnId" | "messageId">,
    outcome: LoopOutcome,
  ): void {
    if (outcome.status !== "parked") this.stepEnded(deps, input);
  }

  /** The step being timed; a model call after the last step (the forced answer) opens its own. */
  private open(): StepTimingsDraft {
    const state = this.state!;
    if (!state.timings) {
      this.stepStarted(state);
      state.timings!.answer = true;
    }
    return state.timings!;
  }

  private async *timedStream(
    events: AsyncIterable<StreamEvent>,
    asked: { provider: string; model: string },
  ): AsyncIterable<StreamEvent> {
    const draft = this.open();
    this.retries = [];
    const t0 = this.now();
    let first: number | null = null;
    let served = asked;
    try {
      for await (const event of events) {
        if (first === null && FIRST_TOKEN.has(event.type)) first = this.now();
        if (event.type === "usage" && event.servedBy) served = event.servedBy;
        yield event;
      }
    } finally {
      const end = this.now();
      const call: ModelCallTimings = {
        ...served,
        firstTokenMs: first === null ? null : first - t0,
        streamMs: end - (first ?? end),
        retries: this.retries,
      };
      this.retries = [];
      draft.model.push(call);
    }
  }
}

function finished(draft: StepTimingsDraft, now: number): StepTimings {
  const { startedAt, savedAt: _savedAt, ...figures } = draft;
  return { ...figures, servers: byServer(draft.tools), totalMs: Math.max(0, now - startedAt) };
}

function byServer(tools: ToolCallTimings[]): ServerLatency[] {
  const servers = new Map<string, ServerLatency>();
  for (const t of tools) {
    const s = servers.get(t.server) ?? { server: t.server, calls: 0, totalMs: 0, maxMs: 0 };
    servers.set(t.server, {
      ...s,
      calls: s.calls + 1,
      totalMs: s.totalMs + t.latencyMs,
      maxMs: Math.max(s.maxMs, t.latencyMs),
    });
  }
  return [...servers.values()];
}
