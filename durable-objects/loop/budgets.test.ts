import { describe, expect, it } from "vitest";
import type { NewServerEvent } from "../protocol/wire";
import { buildToolNameMap } from "../providers/tool-names";
import type { ModelRequest, StreamEvent } from "../providers/types";
import type { TurnBudgets } from "./budgets";
import { runThinkingLoop } from "./loop";
import { memoryLog } from "./test/scripted-loop";
import type { LoopDeps } from "./types";

const lookup = (id: string): StreamEvent => ({
  type: "tool_call",
  id,
  name: "kb__lookup",
  arguments: { q: id },
});
const usage = (inputTokens: number, outputTokens: number): StreamEvent => ({
  type: "usage",
  inputTokens,
  outputTokens,
});
const formatter: StreamEvent = {
  type: "tool_call",
  id: "f",
  name: "response_formatter",
  arguments: { conversation: [{ type: "text", content: "What I found so far." }] },
};

/** A model that looks something up at every step, unless it is made to call the formatter. */
function run(
  budgets: TurnBudgets,
  opts: {
    toolMs?: number;
    /** How long each model call takes. */
    modelMs?: number;
    model?: string;
    callTokens?: [number, number];
    /** The first call's estimated input, as the context fitter reports it. */
    inputTokens?: number;
  } = {},
) {
  const requests: ModelRequest[] = [];
  const events: NewServerEvent[] = [];
  let clock = 0;
  // Each lookup finds something new: the same result twice would end the turn as no progress.
  let lookups = 0;
  const deps: LoopDeps = {
    provider: {
      id: "anthropic",
      async *stream(request: ModelRequest) {
        requests.push(request);
        clock += opts.modelMs ?? 0;
        const forced = typeof request.toolChoice === "object";
        yield forced ? formatter : lookup(`c${requests.length}`);
        yield usage(...(opts.callTokens ?? [600, 100]));
        yield { type: "finish", reason: "tool_calls" };
      },
    },
    stream: (p, r) => p.stream(r),
    tools: {
      catalog: async () => ({
        tools: [{ server: "kb", tool: "lookup", description: "", inputSchema: { type: "object" } }],
        warnings: [],
      }),
      call: async () => {
        clock += opts.toolMs ?? 0;
        lookups += 1;
        return {
          ok: true,
          result: { content: [{ type: "text", text: `finding ${lookups} at ${clock}` }] },
        };
      },
    },
    // Every call runs: nothing is reused.
    calls: { ...memoryLog(), findDone: () => null },
    toolNames: buildToolNameMap([{ server: "kb", tool: "lookup" }]),
    saveArtifact: async (d) => ({ id: "a", type: d.type, title: d.title }),
    checkpoint: () => undefined,
    emit: (e) => void events.push(e),
    recordUsage: () => undefined,
    prices: { "priced-model": { input: 10, output: 50 } },
    now: () => clock,
    ...(opts.inputTokens !== undefined && {
      fitContext: (messages, system) => ({ messages, system, inputTokens: opts.inputTokens }),
    }),
  };
  const outcome = runThinkingLoop(deps, {
    turnId: "t",
    messageId: "m",
    model: opts.model ?? "priced-model",
    system: "s",
    history: [{ role: "user", content: [{ type: "text", text: "dig deep" }] }],
    maxSteps: 10,
    maxTokens: 100,
    signal: new AbortController().signal,
    budgets,
  });
  return { outcome, requests, events, clock: () => clock };
}

const steps = (events: NewServerEvent[]) => events.filter((e) => e.type === "step_started").length;
const notices = (events: NewServerEvent[]) =>
  events.flatMap((e) => (e.type === "notice" ? [e.message] : []));

describe("per-turn budgets", () => {
  it("stops calling tools when another step and the wrap-up would pass the token budget, and forces the formatter", async () => {
    // Each call spends 110 tokens: after one step, a second and the wrap-up would reach 330 >
    // 250, so the wrap-up comes now and the turn ends at 220. (Projecting one step only, the
    // loop ran a second and its wrap-up made 330.)
    const { outcome, requests, events } = run({ tokens: 250 }, { callTokens: [100, 10] });
    const { content, status } = await outcome;
    expect(status).toBe("complete");
    expect(steps(events)).toBe(1);
    expect(requests.map((r) => r.toolChoice)).toEqual(["auto", { name: "response_formatter" }]);
    const turn = events.flatMap((e) => (e.type === "usage_updated" ? [e.turn] : [])).at(-1);
    expect(turn!.inputTokens + turn!.outputTokens).toBe(220);
    // The notice says what was spent when it was sent; the answer's line, what the turn spent.
    expect(notices(events)).toEqual([
      "Stopped early to stay within this turn's token budget (110 of 250 tokens used so far).",
    ]);
    expect(content.filter((p) => p.type === "text")).toEqual([
      { type: "text", text: "What I found so far." },
      {
        type: "text",
        text: "_Stopped early to stay within this turn's token budget (220 of 250 tokens used, the final answer included)._",
      },
    ]);
  });

  it("says so when a first step leaves no room for the wrap-up within the token budget", async () => {
    // Each call spends 700 tokens: the first step is all the turn can take before its answer.
    const { outcome, events } = run({ tokens: 1000 });
    const { content } = await outcome;
    expect(steps(events)).toBe(1);
    expect(notices(events)).toEqual([
      "Stopped early to stay within this turn's token budget (700 of 1,000 tokens used so far).",
    ]);
    expect(content.at(-1)).toEqual({
      type: "text",
      text: "_Stopped early to stay within this turn's token budget (1,400 of 1,000 tokens used, the final answer included)._",
    });
  });

  it("answers at once, without tools, when the first step and the wrap-up would not both fit the token budget", async () => {
    // Each call spends 700 tokens (600 in): projected from the first call's estimated 600 tokens
    // in, a tool step and the wrap-up would pass 1,000. (Without the projection the turn ran
    // a step first and used 1,400.)
    const { outcome, requests, events } = run({ tokens: 1000 }, { inputTokens: 600 });
    const { content, status } = await outcome;
    expect(status).toBe("complete");
    expect(steps(events)).toBe(0);
    expect(requests.map((r) => r.toolChoice)).toEqual([{ name: "response_formatter" }]);
    expect(notices(events)).toEqual([
      "Answering without tools to stay within this turn's token budget (a model call with this conversation takes about 600 of its 1,000 tokens).",
    ]);
    expect(content.at(-1)).toEqual({
      type: "text",
      text: "_Stopped early to stay within this turn's token budget (700 of 1,000 tokens used, the final answer included)._",
    });
    // With room for both, the first step runs as usual.
    const roomy = run({ tokens: 1300 }, { inputTokens: 600 });
    await roomy.outcome;
    expect(roomy.requests[0]?.toolChoice).toBe("auto");
  });

  it("fails a turn whose token budget is smaller than one model call, before the model is asked", async () => {
    const { outcome, requests, events } = run({ tokens: 500 }, { inputTokens: 600 });
    const result = await outcome;
    expect(requests).toHaveLength(0);
    expect(steps(events)).toBe(0);
    expect(result.status).toBe("failed");
    expect(result.error).toEqual({
      code: "budget_too_small",
      message:
        "This turn's token budget (500 tokens) is smaller than one model call with this conversation (about 600 tokens of prompt, tools and history). Raise the budget in the conversation's settings, or start a new conversation.",
    });
  });

  it("projects the first step's cost too, for a priced model only", async () => {
    // The first call's 600 estimated input tokens cost $0.006 at $10 per million.
    const tight = run({ costUsd: 0.01 }, { inputTokens: 600 });
    await tight.outcome;
    expect(tight.requests.map((r) => r.toolChoice)).toEqual([{ name: "response_formatter" }]);
    expect(notices(tight.events)).toEqual([
      "Answering without tools to stay within this turn's cost budget (a model call with this conversation costs about $0.0060 of its $0.0100).",
    ]);
    const tooSmall = run({ costUsd: 0.005 }, { inputTokens: 600 });
    const failed = await tooSmall.outcome;
    expect(tooSmall.requests).toHaveLength(0);
    expect(failed.error).toEqual({
      code: "budget_too_small",
      message:
        "This turn's cost budget ($0.0050) is smaller than one model call with this conversation (about $0.0060 for its prompt, tools and history). Raise the budget in the conversation's settings, or start a new conversation.",
    });
    // An unpriced model cannot be held to a cost budget: its first step runs.
    const unpriced = run({ costUsd: 0.005 }, { inputTokens: 600, model: "house-model" });
    await unpriced.outcome;
    expect(unpriced.requests[0]?.toolChoice).toBe("auto");
  });

  it("ends on the cost budget with a priced model, and cannot hold an unpriced one to it", async () => {
    // A step costs 600 × $10 + 100 × $50 per million = $0.011.
    const priced = run({ costUsd: 0.03 });
    const answer = await priced.outcome;
    // After one step ($0.011), a second and the wrap-up would reach $0.033 > $0.03.
    expect(steps(priced.events)).toBe(1);
    expect(notices(priced.events)).toEqual([
      "Stopped early to stay within this turn's cost budget ($0.0110 of $0.0300 spent so far).",
    ]);
    expect(JSON.stringify(answer.content)).toContain(
      "cost budget ($0.0220 of $0.0300 spent, the final answer included)",
    );
    const unpriced = run({ costUsd: 0.03 }, { model: "house-model" });
    await unpriced.outcome;
    expect(steps(unpriced.events)).toBe(10);
    expect(notices(unpriced.events)).toEqual([
      "Stopped at this turn's step budget (10 of 10 steps taken).",
    ]);
  });

  it("ends on the time budget, measured from the turn's own clock", async () => {
    const { outcome, events } = run({ wallMs: 60_000 }, { toolMs: 25_000 });
    const { content } = await outcome;
    // 25 s after step one, 50 s after step two: a third would pass 60 s.
    expect(steps(events)).toBe(2);
    expect(content.at(-1)).toEqual({
      type: "text",
      text: "_Stopped early to stay within this turn's time budget (50 s of 60 s used before the final answer)._",
    });
  });

  it("keeps room in the time budget for the wrap-up call, as long as the longest call yet", async () => {
    const { outcome, events, clock } = run({ wallMs: 60_000 }, { toolMs: 20_000, modelMs: 8_000 });
    const { content } = await outcome;
    // 28 s after step one; a second step (56 s) and an 8 s wrap-up would end at 64 s.
    expect(steps(events)).toBe(1);
    expect(clock()).toBe(36_000);
    expect(content.at(-1)).toEqual({
      type: "text",
      text: "_Stopped early to stay within this turn's time budget (28 s of 60 s used before the final answer)._",
    });
  });
});
