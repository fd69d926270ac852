// What usage accounting and budget checks add to one step of the loop: pricing the model call
// (a dated snapshot name, the slowest lookup), adding it to the turn's totals, the usage row and
// the live event (both handed to no-ops here: their storage is the event log's cost, measured by
// the loop bench), then the budget check and the step mark. Target: under 0.2 ms per step (p50).
import { markStepStart, budgetStop, turnClock } from "../../../durable-objects/loop/budgets";
import { BUILT_IN_PRICES } from "../../../durable-objects/loop/prices";
import type { LoopState } from "../../../durable-objects/loop/types";
import { meterModelCall } from "../../../durable-objects/loop/usage-meter";

const STEPS_PER_SAMPLE = 1000;
const SAMPLES = 200;

function sample(): number {
  const state: LoopState = {
    step: 0,
    messages: [],
    shown: [],
    artifactParts: [],
    graphs: [],
    noProgressSteps: 0,
    formatterRepairs: 0,
  };
  const deps = { emit: () => undefined, recordUsage: () => undefined, prices: BUILT_IN_PRICES };
  const input = { turnId: "t", messageId: "m", model: "claude-sonnet-4-20250514" };
  const budgets = { tokens: Number.MAX_SAFE_INTEGER, costUsd: 1e9, wallMs: 1e12 };
  const clock = turnClock(state, () => performance.now());
  const started = performance.now();
  for (let i = 0; i < STEPS_PER_SAMPLE; i++) {
    clock.sync();
    if (budgetStop(budgets, state)) throw new Error("no budget should stop this bench");
    state.step += 1;
    markStepStart(state);
    meterModelCall(deps, input, state, {
      type: "usage",
      inputTokens: 1200 + i,
      outputTokens: 300,
      cachedTokens: 800,
      reasoningTokens: 40,
    });
  }
  return (performance.now() - started) / STEPS_PER_SAMPLE;
}

for (let i = 0; i < 20; i++) sample(); // warm-up
const perStep = Array.from({ length: SAMPLES }, sample).sort((a, b) => a - b);
const at = (q: number) => perStep[Math.min(perStep.length - 1, Math.floor(q * perStep.length))]!;
const us = (ms: number) => `${(ms * 1000).toFixed(2)} µs`;
console.log(
  `usage accounting + budget check per step: p50 ${us(at(0.5))}, p99 ${us(at(0.99))} ` +
    `(target p50 < 200 µs; ${SAMPLES} samples of ${STEPS_PER_SAMPLE} steps)`,
);
