// What the loop does for a route (deps.routing): a local model's answer under "local first" is a
// draft the next (cloud) request answers through the formatter, and unusable tool calls are
// reported per step so the route can set a model aside.
import { describe, expect, it } from "vitest";
import { FORMATTER_TOOL } from "./formatter";
import { call, runScripted, say, stop, toolStop } from "./test/scripted-loop";
import type { StepRouting } from "./types";

const search = {
  server: "lit",
  tool: "search",
  description: "Search papers",
  inputSchema: {
    type: "object",
    properties: { query: { type: "string" } },
    required: ["query"],
  },
};
const answer = (text: string) =>
  call("f", FORMATTER_TOOL, { conversation: [{ type: "text", content: text }] });

/** Steps up to `localSteps` are served by the local model, which may not answer. */
const localFirst = (localSteps: number): StepRouting => ({
  mayAnswer: (step) => step > localSteps,
  noteUnusableCalls: () => false,
});

describe("local first in the loop", () => {
  it("takes the local model's text as a draft and asks for the answer through the formatter", async () => {
    const { outcome, requests, calls } = await runScripted({
      tools: [search],
      deps: { routing: localFirst(99) },
      steps: [
        [call("c1", "lit__search", { query: "olaparib" }), toolStop],
        [say("Olaparib is a PARP inhibitor."), stop],
        [answer("From the cloud."), toolStop],
      ],
    });
    expect(calls).toEqual([{ tool: "search", args: { query: "olaparib" } }]);
    expect(requests.map((r) => r.toolChoice)).toEqual(["auto", "auto", { name: FORMATTER_TOOL }]);
    // The draft is in the history the answer is written from.
    expect(requests[2]!.messages.at(-1)).toEqual({
      role: "assistant",
      content: [{ type: "text", text: "Olaparib is a PARP inhibitor." }],
    });
    expect(outcome.status).toBe("complete");
    expect(outcome.content).toContainEqual({ type: "text", text: "From the cloud." });
  });

  it("drops the local model's formatter call, runs its other calls, and still asks the cloud", async () => {
    const { outcome, requests, calls } = await runScripted({
      tools: [search],
      deps: { routing: localFirst(99) },
      steps: [
        [call("c1", "lit__search", { query: "parp" }), answer("Local answer."), toolStop],
        [answer("Local answer again."), toolStop],
        [answer("Cloud answer."), toolStop],
      ],
    });
    expect(calls).toHaveLength(1);
    expect(requests.map((r) => r.toolChoice)).toEqual(["auto", "auto", { name: FORMATTER_TOOL }]);
    expect(outcome.content).toContainEqual({ type: "text", text: "Cloud answer." });
    expect(outcome.content).not.toContainEqual(expect.objectContaining({ text: "Local answer." }));
  });
});

describe("unusable tool calls in the loop", () => {
  it("reports each step's unusable calls, and a model set aside gets a fresh start", async () => {
    const reported: [number, string[]][] = [];
    const routing: StepRouting = {
      mayAnswer: () => true,
      // The route sets the model aside on the second bad step.
      noteUnusableCalls: (step, reasons) => {
        reported.push([step, reasons]);
        return reasons.length > 0 && step === 2;
      },
    };
    const { requests, calls } = await runScripted({
      tools: [search],
      deps: { routing },
      input: { maxSteps: 6 },
      steps: [
        [call("b1", "weather__forecast", { city: "Oslo" }), toolStop],
        [call("b2", "lit__search", { q: 3 }), toolStop],
        [call("c1", "lit__search", { query: "parp" }), toolStop],
        [say("Found it."), stop],
      ],
    });
    expect(reported).toEqual([
      [1, ["no tool is named weather__forecast"]],
      [2, [expect.stringMatching(/^invalid arguments for lit__search: /)]],
      [3, []],
    ]);
    // Without the fresh start, two steps without progress would have ended the loop after step 2.
    expect(calls).toEqual([{ tool: "search", args: { query: "parp" } }]);
    expect(requests).toHaveLength(4);
  });
});
