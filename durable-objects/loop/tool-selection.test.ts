import { describe, expect, it } from "vitest";
import { FIND_TOOLS } from "./find-tools";
import { FORMATTER_TOOL } from "./formatter";
import { manyTools } from "./test/many-tools";
import { call, runScripted, say, stop, toolResultsIn, toolStop } from "./test/scripted-loop";
import { bm25Scores, selectTools, tokenize } from "./tool-selection";

const asked = (text: string) => ({
  history: [{ role: "user" as const, content: [{ type: "text" as const, text }] }],
});

describe("ranking tools", () => {
  it("splits tool names into words", () => {
    expect(tokenize("searchPubMed get_clinical-trials")).toEqual([
      "search",
      "pub",
      "med",
      "get",
      "clinical",
      "trials",
    ]);
  });

  it("scores the documents that share the query's rarer words highest", () => {
    const [weather, trials, none] = bm25Scores("recruiting trials for asthma", [
      "weather forecast for a city",
      "find clinical trials by condition and recruiting status",
      "send email",
    ]);
    expect(trials).toBeGreaterThan(weather!);
    expect(none).toBe(0);
  });

  it("offers every tool under the cap, and no find_tools", () => {
    const tools = manyTools(30).map((t) => ({ ...t, name: t.tool }));
    expect(selectTools(tools, "anything", 40)).toEqual({ offered: tools, deferred: 0 });
  });
});

describe("a turn with 300 tools", () => {
  it("offers at most the cap, the relevant ones first, says why, and find_tools loads a named tool", async () => {
    const tools = manyTools(300);
    const { requests, events, calls } = await runScripted({
      tools,
      input: asked("Which clinical trials are recruiting for asthma?"),
      steps: [
        [call("f1", FIND_TOOLS, { query: "get_calendar_243" }), toolStop],
        [call("c1", "server3__get_calendar_243", { query: "meeting" }), toolStop],
        [say("Booked."), stop],
      ],
    });
    const first = requests[0]!.tools!.map((t) => t.name);
    expect(first).toHaveLength(40 + 1); // the cap (find_tools included), plus the formatter
    expect(first).toContain(FIND_TOOLS);
    expect(first).toContain(FORMATTER_TOOL);
    expect(first.filter((n) => n.includes("trials")).length).toBeGreaterThanOrEqual(30);
    expect(first).not.toContain("server3__get_calendar_243");
    expect(events).toContainEqual(
      expect.objectContaining({
        type: "notice",
        level: "info",
        message: expect.stringContaining(
          "39 of 300 tools offered, with find_tools (the cap is 40)",
        ),
      }),
    );
    // find_tools answered in the loop, shown in the timeline; the tool it found is offered next.
    expect(toolResultsIn(requests[1])[0]).toContain("server3__get_calendar_243");
    expect(events).toContainEqual(
      expect.objectContaining({ type: "tool_call", callId: "f1", tool: FIND_TOOLS }),
    );
    expect(requests[1]!.tools!.map((t) => t.name)).toContain("server3__get_calendar_243");
    expect(requests[1]!.tools).toHaveLength(41);
    expect(calls).toEqual([{ tool: "get_calendar_243", args: { query: "meeting" } }]);
  });

  it("takes the cap from the input", async () => {
    const { requests } = await runScripted({
      tools: manyTools(300),
      input: { ...asked("weather in Paris"), maxToolsPerStep: 10 },
      steps: [[say("Sunny."), stop]],
    });
    expect(requests[0]!.tools).toHaveLength(11);
  });
});
