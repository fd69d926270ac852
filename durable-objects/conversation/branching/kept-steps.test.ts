// Where an answer is cut for a branch after step n, and how its kept steps go to the model.
import { describe, expect, it } from "vitest";
import type { MessagePart } from "../../protocol/messages";
import { shownUpTo } from "./branch-source";
import { keptStepMessages } from "./kept-steps";

const call = (callId: string, topic: string): MessagePart => ({
  type: "tool_call",
  callId,
  server: "library",
  tool: "lookup",
  arguments: { topic },
  status: "done",
});
const answer: MessagePart[] = [
  { type: "reasoning", text: "Two lookups." },
  { type: "text", text: "Looking up alpha." },
  call("a", "alpha"),
  { type: "text", text: "Now beta and gamma." },
  call("b", "beta"),
  call("g", "gamma"),
  { type: "text", text: "Here is the answer." },
  { type: "artifact", artifactId: "x", artifactType: "image/png", title: "Chart" },
];
const steps = new Map([
  ["a", 1],
  ["b", 2],
  ["g", 2],
]);

describe("an answer cut after a step", () => {
  it("keeps the parts up to that step's last call, without the final text or artifacts", () => {
    expect(shownUpTo(answer, steps, 0)).toEqual([]);
    expect(shownUpTo(answer, steps, 1)).toEqual(answer.slice(0, 3));
    expect(shownUpTo(answer, steps, 2)).toEqual(answer.slice(0, 6));
  });

  it("goes to the model one step per assistant message, each with its whole results", () => {
    const long = "x".repeat(5_000);
    const messages = keptStepMessages(
      shownUpTo(answer, steps, 2),
      (id) => steps.get(id),
      (id) => ({
        forModel: [{ type: "text", text: `${id}: ${long}` }],
        summary: id,
        isError: false,
      }),
      (server, tool) => `${server}__${tool}`,
    );
    expect(messages.map((m) => [m.role, m.content.map((p) => p.type)])).toEqual([
      ["assistant", ["text", "tool_call"]],
      ["tool", ["tool_result"]],
      ["assistant", ["text", "tool_call", "tool_call"]],
      ["tool", ["tool_result", "tool_result"]],
    ]);
    expect(messages[3]!.content[1]).toEqual({
      type: "tool_result",
      callId: "g",
      name: "library__lookup",
      content: [{ type: "text", text: `g: ${long}` }],
    });
  });
});
