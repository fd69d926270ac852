import { describe, expect, it } from "vitest";
import { call, runScripted, say, stop, toolResultsIn, toolStop } from "./test/scripted-loop";

const forecast = {
  server: "wx",
  tool: "forecast",
  description: "Weather forecast for a city",
  inputSchema: {
    type: "object",
    properties: { city: { type: "string" }, days: { type: "integer" } },
    required: ["city"],
  },
};

describe("arguments checked against the tool's schema before the call", () => {
  it("coerces a number sent as a string and runs the call with the number", async () => {
    const { calls, outcome } = await runScripted({
      tools: [forecast],
      steps: [
        [call("c1", "wx__forecast", { city: "Paris", days: "3" }), toolStop],
        [say("Sunny."), stop],
      ],
    });
    expect(calls).toEqual([{ tool: "forecast", args: { city: "Paris", days: 3 } }]);
    expect(outcome.status).toBe("complete");
  });

  it("sends what still fails back to the model with the exact error, without calling the server", async () => {
    const { calls, requests, events } = await runScripted({
      tools: [forecast],
      steps: [
        [call("c1", "wx__forecast", { town: "Paris" }), toolStop],
        [call("c2", "wx__forecast", { city: "Paris" }), toolStop],
        [say("Sunny."), stop],
      ],
    });
    expect(calls).toEqual([{ tool: "forecast", args: { city: "Paris" } }]);
    const [sent] = toolResultsIn(requests[1]);
    expect(sent).toContain('arguments: Instance does not have required property "city".');
    expect(sent).toContain('"required":["city"]');
    expect(events).toContainEqual(
      expect.objectContaining({ type: "tool_result", callId: "c1", isError: true }),
    );
  });

  it("counts bad arguments as no progress: a model that never gets them right is stopped", async () => {
    const bad = [call("x", "wx__forecast", { days: 1 }), toolStop];
    const { calls, requests } = await runScripted({
      tools: [forecast],
      input: { maxSteps: 10 },
      steps: [bad, bad, bad, bad, bad, bad],
    });
    expect(calls).toHaveLength(0);
    // Two steps without progress, then one request for the final answer.
    expect(requests).toHaveLength(3);
  });
});
