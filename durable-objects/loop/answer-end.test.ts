import { describe, expect, it } from "vitest";
import type { MessagePart } from "../protocol/messages";
import type { StreamEvent } from "../providers/types";
import { FORMATTER_TOOL } from "./formatter";
import { call, runScripted, say, stop, toolResultsIn, toolStop } from "./test/scripted-loop";

const lookup = { server: "kb", tool: "lookup", description: "look up", inputSchema: {} };
const finish = (reason: "length" | "content_filter"): StreamEvent => ({ type: "finish", reason });
const textOf = (content: MessagePart[]) =>
  content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n");
const warnings = (events: Awaited<ReturnType<typeof runScripted>>["events"]) =>
  events.flatMap((e) => (e.type === "notice" && e.level === "warning" ? [e.message] : []));

describe("an answer that ended short of a whole one says why", () => {
  it("an answer cut at max tokens says so, with the setting to raise", async () => {
    const { outcome, events } = await runScripted({
      tools: [],
      steps: [[say("The three causes are: first, the"), finish("length")]],
      input: { maxTokens: 300 },
    });
    expect(outcome.status).toBe("complete");
    const text = textOf(outcome.content);
    expect(text).toMatch(/^The three causes are: first, the/);
    expect(text).toMatch(/cut off.*maxTokens setting \(now 300\)/);
    expect(warnings(events).join(" ")).toMatch(/cut off/);
  });

  it("an answer a safety filter or a refusal stopped says so, after a tool step too", async () => {
    const { outcome, events } = await runScripted({
      tools: [lookup],
      steps: [[call("c1", "kb__lookup", {}), toolStop], [finish("content_filter")]],
    });
    expect(outcome.status).toBe("complete");
    expect(textOf(outcome.content)).toMatch(/stopped this answer/);
    expect(warnings(events).join(" ")).toMatch(/stopped this answer/);
  });

  it("an empty answer is not an empty message", async () => {
    const { outcome, events } = await runScripted({ tools: [], steps: [[stop]] });
    expect(textOf(outcome.content)).toMatch(/empty answer/);
    expect(warnings(events).join(" ")).toMatch(/empty answer/);
  });

  it("a whole answer gets no note", async () => {
    const { outcome, events } = await runScripted({ tools: [], steps: [[say("Paris."), stop]] });
    expect(textOf(outcome.content)).toBe("Paris.");
    expect(warnings(events)).toEqual([]);
  });

  it("a call cut off at max tokens is not run with its mended arguments: the model is told why", async () => {
    // The provider mends a call's JSON cut off mid-way (a missing brace), so its arguments look
    // whole; only the finish reason says they are not.
    const { calls, requests, outcome } = await runScripted({
      tools: [lookup],
      steps: [
        [call("c1", "kb__lookup", { text: "the first half of a long" }), finish("length")],
        [say("Done."), stop],
      ],
    });
    expect(calls).toEqual([]);
    expect(toolResultsIn(requests[1]).join("\n")).toMatch(/max tokens.*not run/);
    expect(outcome.status).toBe("complete");
  });

  it("an answer whose formatter call was cut off at max tokens keeps what came and says so", async () => {
    const { outcome, events } = await runScripted({
      tools: [],
      steps: [
        [
          call("f1", FORMATTER_TOOL, {
            conversation: [{ type: "text", content: "Step one: mix th" }],
          }),
          finish("length"),
        ],
      ],
    });
    expect(outcome.status).toBe("complete");
    const text = textOf(outcome.content);
    expect(text).toMatch(/^Step one: mix th/);
    expect(text).toMatch(/cut off.*maxTokens/);
    expect(warnings(events).join(" ")).toMatch(/cut off/);
  });

  it("so does a forced formatter call cut off at max tokens, at the step cap", async () => {
    const { outcome } = await runScripted({
      tools: [lookup],
      steps: [
        [call("c1", "kb__lookup", {}), toolStop],
        [
          call("f1", FORMATTER_TOOL, { conversation: [{ type: "text", content: "Found: 4" }] }),
          finish("length"),
        ],
      ],
      input: { maxSteps: 1 },
    });
    expect(textOf(outcome.content)).toMatch(/^Found: 4[^]*cut off.*maxTokens/);
  });

  it("a refusal the provider explained says why, in its words", async () => {
    const { outcome } = await runScripted({
      tools: [],
      steps: [
        [
          say("Hello.."),
          {
            type: "finish",
            reason: "content_filter",
            detail: "This request was declined because it could enable cyber harm.",
          },
        ],
      ],
    });
    expect(textOf(outcome.content)).toMatch(
      /stopped this answer: This request was declined because it could enable cyber harm\. /,
    );
  });

  it("an answer cut off by a full context window does not say to raise maxTokens", async () => {
    const detail = "the conversation filled the model's context window.";
    const { outcome } = await runScripted({
      tools: [],
      steps: [[say("As I said bef"), { type: "finish", reason: "length", detail }]],
    });
    const text = textOf(outcome.content);
    expect(text).toMatch(
      /cut off: the conversation filled the model's context window\. Start a new/,
    );
    expect(text).not.toMatch(/maxTokens/);
  });

  it("a turn whose forced answer never came is not an empty message either", async () => {
    const { outcome } = await runScripted({
      tools: [lookup],
      steps: [[call("c1", "kb__lookup", {}), toolStop], [stop]],
      input: { maxSteps: 1 },
    });
    expect(outcome.status).toBe("complete");
    expect(textOf(outcome.content)).toMatch(/empty answer/);
  });
});
