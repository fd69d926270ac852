import { describe, expect, it } from "vitest";
import type { MessagePart } from "../protocol/messages";
import type { StreamEvent } from "../providers/types";
import { call, runScripted, say, stop, toolStop } from "./test/scripted-loop";

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
    expect(text).toMatch(/cut off.*300 tokens.*maxTokens/);
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
});
