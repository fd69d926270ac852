// What timing a step's phases adds to it: the same step (a model stream of a few events, two
// tool calls, a checkpoint) run through the loop's dependencies as they are and through the step
// timer's wrappers (plus its step start and its step_timings event, handed to a no-op here).
// The difference per step is the timer's overhead. Target: under 0.2 ms per step (p50).
import { StepTimer } from "../../../durable-objects/loop/step-timings";
import type { LoopDeps, LoopInput, LoopState } from "../../../durable-objects/loop/types";
import type { StreamEvent } from "../../../durable-objects/providers/types";

const STEPS_PER_SAMPLE = 500;
const SAMPLES = 200;

const EVENTS: StreamEvent[] = [
  { type: "text_delta", text: "Looking it up." },
  { type: "tool_call", id: "c1", name: "s__a", arguments: {} },
  { type: "tool_call", id: "c2", name: "s__b", arguments: {} },
  { type: "usage", inputTokens: 1200, outputTokens: 300 },
  { type: "finish", reason: "tool_calls" },
];

async function* stream(): AsyncIterable<StreamEvent> {
  yield* EVENTS;
}

const state = (): LoopState => ({
  step: 0,
  messages: [],
  shown: [],
  artifactParts: [],
  graphs: [],
  noProgressSteps: 0,
  formatterRepairs: 0,
});

const deps = {
  provider: { id: "anthropic", stream },
  stream: () => stream(),
  tools: {
    catalog: async () => ({ tools: [], warnings: [] }),
    call: async () => ({ ok: true as const, result: {} }),
  },
  checkpoint: () => undefined,
  emit: () => undefined,
} as unknown as LoopDeps;
const input = { turnId: "t", messageId: "m" } as LoopInput;
const request = { model: "claude-sonnet-4", messages: [] };
const hooks = (callId: string) => ({
  callId,
  signal: new AbortController().signal,
  onProgress: () => undefined,
  onLog: () => undefined,
});

async function step(d: LoopDeps, s: LoopState): Promise<void> {
  s.step += 1;
  d.stepTimer?.stepStarted(s);
  for await (const _event of d.stream(d.provider, request, s.step));
  await Promise.all([
    d.tools.call("s", "a", {}, hooks("c1")),
    d.tools.call("s", "b", {}, hooks("c2")),
  ]);
  d.checkpoint(s);
  d.stepTimer?.stepEnded(d, input);
}

async function sample(timed: boolean): Promise<number> {
  const s = state();
  const d = timed ? new StepTimer().instrument(deps, input, s, false) : deps;
  const started = performance.now();
  for (let i = 0; i < STEPS_PER_SAMPLE; i++) await step(d, s);
  return (performance.now() - started) / STEPS_PER_SAMPLE;
}

async function samples(timed: boolean): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < SAMPLES; i++) out.push(await sample(timed));
  return out.sort((a, b) => a - b);
}

for (let i = 0; i < 20; i++) await Promise.all([sample(false), sample(true)]); // warm-up
const plain = await samples(false);
const timed = await samples(true);
const at = (xs: number[], q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const us = (ms: number) => `${(ms * 1000).toFixed(2)} µs`;
console.log(
  `step timings per step: p50 ${us(at(timed, 0.5) - at(plain, 0.5))} added ` +
    `(${us(at(plain, 0.5))} without, ${us(at(timed, 0.5))} with; p99 ${us(at(timed, 0.99))} with) ` +
    `(target p50 < 200 µs; ${SAMPLES} samples of ${STEPS_PER_SAMPLE} steps)`,
);
