// A model call that completes without a usage report (an OpenAI-compatible server that sends no
// usage chunk, or a report of nothing but zeros) is still a call the user made: it is counted,
// with zero tokens and marked unreported, never with guessed tokens that budgets would charge.
import { describe, expect, it } from "vitest";
import type { NewServerEvent } from "../protocol/wire";
import type { StreamEvent } from "../providers/types";
import { call, LOOKUP, lookupDeps, runScripted, say, stop } from "./test/scripted-loop";
import { BUILT_IN_PRICES } from "./prices";

const usageOf = (events: NewServerEvent[]) =>
  events.filter(
    (e): e is Extract<NewServerEvent, { type: "usage_updated" }> => e.type === "usage_updated",
  );

async function run(steps: StreamEvent[][]) {
  const recorded: unknown[] = [];
  const { outcome, events } = await runScripted({
    tools: [LOOKUP],
    steps,
    deps: {
      ...lookupDeps(),
      prices: BUILT_IN_PRICES,
      recordUsage: (u) => void recorded.push(u),
    },
    input: { model: "gpt-4o-mini" },
  });
  return { outcome, recorded, usage: usageOf(events) };
}

describe("a model call without a usage report", () => {
  it("is counted with zero tokens and marked unreported when its stream has no usage", async () => {
    const { outcome, usage, recorded } = await run([[say("All done here."), stop]]);
    expect(outcome.status).toBe("complete");
    expect(usage).toHaveLength(1);
    expect(usage[0]).toMatchObject({
      unreported: true,
      model: "gpt-4o-mini",
      call: { calls: 1, inputTokens: 0, outputTokens: 0, costUsd: 0, unreportedCalls: 1 },
      turn: { calls: 1, inputTokens: 0, outputTokens: 0, unreportedCalls: 1 },
    });
    expect(usage[0]!.estimated).toBeUndefined();
    expect(recorded).toEqual([
      expect.objectContaining({ unreported: true, inputTokens: 0, outputTokens: 0, step: 1 }),
    ]);
  });

  it("counts a report of nothing but zeros as unreported, and a real report as it is", async () => {
    const zeros: StreamEvent = { type: "usage", inputTokens: 0, outputTokens: 0 };
    const real: StreamEvent = { type: "usage", inputTokens: 900, outputTokens: 40 };
    const { usage } = await run([
      [call("c1", "kb__lookup", {}), zeros, { type: "finish", reason: "tool_calls" }],
      [say("The answer is 42."), real, stop],
    ]);
    expect(usage.map((u) => [u.step, u.unreported ?? false])).toEqual([
      [1, true],
      [2, false],
    ]);
    // The turn's figures (what its budgets measure) hold the reported tokens only.
    expect(usage.at(-1)!.turn).toMatchObject({
      calls: 2,
      inputTokens: 900,
      outputTokens: 40,
      unreportedCalls: 1,
    });
  });
});
