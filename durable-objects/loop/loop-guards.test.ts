import { describe, expect, it } from "vitest";
import { callKey } from "./call-key";
import { call, runScripted, say, stop, toolStop } from "./test/scripted-loop";

const search = {
  server: "lit",
  tool: "search",
  description: "Search papers",
  inputSchema: {
    type: "object",
    properties: { query: { type: "string" }, page: { type: "integer" } },
  },
};

describe("repeats beyond exact ones", () => {
  it("a call that differs only in whitespace, key order or case is the same call", () => {
    expect(callKey("lit", "search", { query: "CRISPR  off-target", page: 1 })).toBe(
      callKey("lit", "Search", { page: 1, Query: " crispr off-target " }),
    );
    expect(callKey("lit", "search", { query: "crispr" })).not.toBe(
      callKey("lit", "search", { query: "crispr cas9" }),
    );
  });

  it("answers such a near-repeat from the earlier result instead of calling the tool again", async () => {
    const { calls, events } = await runScripted({
      tools: [search],
      steps: [
        [call("c1", "lit__search", { query: "CRISPR off-target" }), toolStop],
        [call("c2", "lit__search", { query: "crispr   OFF-TARGET " }), toolStop],
        [say("Done."), stop],
      ],
    });
    expect(calls).toHaveLength(1);
    expect(events).toContainEqual(
      expect.objectContaining({
        type: "tool_result",
        callId: "c2",
        summary: expect.stringMatching(/^reused the earlier result/),
      }),
    );
  });

  it("a step whose results are the same as an earlier step's is no progress: the loop stops", async () => {
    // Every page of this search says the same: new calls, but nothing new learnt.
    const { calls, requests } = await runScripted({
      tools: [search],
      input: { maxSteps: 10 },
      answer: () => ({ ok: true, result: { content: [{ type: "text", text: "No results." }] } }),
      steps: Array.from({ length: 8 }, (_, i) => [
        call(`c${i}`, "lit__search", { query: "unicorn biology", page: i + 1 }),
        toolStop,
      ]),
    });
    // Step 1 learns "No results."; steps 2 and 3 repeat it; then the final-answer request.
    expect(calls).toHaveLength(3);
    expect(requests).toHaveLength(4);
  });
});
