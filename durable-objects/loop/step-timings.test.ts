import { describe, expect, it } from "vitest";
import type { NewServerEvent } from "../protocol/wire";
import type { StreamEvent } from "../providers/types";
import { initialState } from "./loop";
import { StepTimer, type StepTimingsDraft } from "./step-timings";
import type { LoopDeps, LoopInput, LoopState } from "./types";

/** A clock the test moves, and loop dependencies that take a set time each. */
function world() {
  let now = 1_000;
  const events: NewServerEvent[] = [];
  const saved: LoopState[] = [];
  const deps = {
    provider: { id: "anthropic", stream: () => stream() },
    stream: () => stream(),
    tools: {
      catalog: async () => {
        now += 30;
        return { tools: [], warnings: [] };
      },
      call: async (server: string) => {
        now += server === "slow" ? 900 : 50;
        return { ok: true as const, result: {} };
      },
    },
    checkpoint: (s: LoopState) => {
      now += 2;
      saved.push(structuredClone(s));
    },
    emit: (e: NewServerEvent) => void events.push(e),
  } as unknown as LoopDeps;
  async function* stream(): AsyncIterable<StreamEvent> {
    now += 400; // to the first token
    yield { type: "tool_call", id: "c1", name: "slow__a", arguments: {} };
    now += 60;
    yield { type: "usage", inputTokens: 1, outputTokens: 1 };
  }
  const timings = () => events.flatMap((e) => (e.type === "step_timings" ? [e.timings] : []));
  return {
    deps,
    events,
    saved,
    timings,
    clock: { now: () => now, advance: (ms: number) => (now += ms) },
  };
}

const input = { turnId: "t", messageId: "m" } as LoopInput;
const hooks = (callId: string) => ({
  callId,
  signal: new AbortController().signal,
  onProgress: () => undefined,
  onLog: () => undefined,
});
const request = { model: "claude-haiku-4-5", messages: [] };

async function modelCall(d: LoopDeps) {
  for await (const _e of d.stream(d.provider, request, 1));
}

describe("the step timer", () => {
  it("times the queue, the tool list, the model call with its retries, each tool per server and the checkpoints", async () => {
    const w = world();
    const timer = new StepTimer({ now: w.clock.now, queuedSince: 800 });
    const state = initialState([]);
    const d = timer.instrument(w.deps, input, state, false);
    await d.tools.catalog();
    state.step = 1;
    timer.stepStarted(state);
    const call = modelCall(d);
    timer.retried(1, 1000, "overloaded");
    await call;
    await d.tools.call("slow", "a", {}, hooks("c1"));
    await d.tools.call("fast", "b", {}, hooks("c2"));
    await d.tools.call("fast", "c", {}, hooks("c3"));
    d.checkpoint(state);
    timer.stepEnded(d, input);

    expect(w.timings()).toEqual([
      {
        step: 1,
        queuedMs: 200,
        catalogMs: 30,
        model: [
          {
            provider: "anthropic",
            model: "claude-haiku-4-5",
            firstTokenMs: 400,
            streamMs: 60,
            retries: [{ attempt: 1, waitMs: 1000, code: "overloaded" }],
          },
        ],
        tools: [
          { callId: "c1", server: "slow", tool: "a", latencyMs: 900 },
          { callId: "c2", server: "fast", tool: "b", latencyMs: 50 },
          { callId: "c3", server: "fast", tool: "c", latencyMs: 50 },
        ],
        servers: [
          { server: "slow", calls: 1, totalMs: 900, maxMs: 900 },
          { server: "fast", calls: 2, totalMs: 100, maxMs: 50 },
        ],
        checkpointMs: 2,
        pausedMs: 0,
        totalMs: 400 + 60 + 900 + 50 + 50 + 2,
      },
    ]);
    expect(state.timings).toBeUndefined();
  });

  it("a step parked at an approval goes on from its checkpoint and counts the wait as paused", async () => {
    const w = world();
    const first = new StepTimer({ now: w.clock.now });
    const state = initialState([]);
    const d = first.instrument(w.deps, input, state, false);
    state.step = 1;
    first.stepStarted(state);
    await modelCall(d);
    state.pending = { calls: [{ id: "c1", name: "slow__a", arguments: {} }], answers: {} };
    d.checkpoint(state);
    first.turnEnded(d, input, { content: [], status: "parked" });
    expect(w.timings()).toEqual([]);

    // An hour later, in a new run, from the stored checkpoint.
    w.clock.advance(3_600_000);
    const resumed = structuredClone(w.saved.at(-1)!);
    const second = new StepTimer({ now: w.clock.now, queuedSince: 0 });
    const d2 = second.instrument(w.deps, input, resumed, true);
    await d2.tools.call("slow", "a", {}, hooks("c1"));
    resumed.pending = undefined;
    d2.checkpoint(resumed);
    second.stepEnded(d2, input);

    const [step] = w.timings();
    expect(step).toMatchObject({
      step: 1,
      model: [{ firstTokenMs: 400, streamMs: 60 }],
      tools: [{ callId: "c1", latencyMs: 900 }],
      // The checkpoint that parked the step is part of the pause (its row cannot hold its own
      // duration); the one after the resume is a checkpoint.
      pausedMs: 3_600_002,
      checkpointMs: 2,
    });
    // A resumed turn was not queued again.
    expect(step).not.toHaveProperty("queuedMs");
    expect(step!.totalMs).toBe(400 + 60 + 2 + 3_600_000 + 900 + 2);
  });

  it("a turn resumed at a step boundary does not send the last step's figures again; a forced answer reports as one", async () => {
    const w = world();
    const state: LoopState = {
      ...initialState([]),
      step: 2,
      // What the checkpoint at the end of step 2 held (its figures were sent after it).
      timings: {
        step: 2,
        startedAt: 0,
        model: [],
        tools: [],
        checkpointMs: 0,
        pausedMs: 0,
        savedAt: 500,
      } satisfies StepTimingsDraft,
    };
    const timer = new StepTimer({ now: w.clock.now });
    const d = timer.instrument(w.deps, input, state, true);
    expect(state.timings).toBeUndefined();
    await modelCall(d);
    timer.turnEnded(d, input, { content: [], status: "complete" });
    expect(w.timings()).toEqual([
      expect.objectContaining({ step: 2, answer: true, pausedMs: 0, model: [expect.anything()] }),
    ]);
  });

  it("drops a checkpointed draft it cannot read", () => {
    const w = world();
    const state: LoopState = {
      ...initialState([]),
      step: 1,
      pending: { calls: [], answers: {} },
      timings: { step: "one" } as unknown as StepTimingsDraft,
    };
    new StepTimer({ now: w.clock.now }).instrument(w.deps, input, state, true);
    expect(state.timings).toBeUndefined();
  });
});
