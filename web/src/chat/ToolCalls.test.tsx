import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { MessagePart } from "../../../durable-objects/protocol/messages";
import type { Activity, ApprovalView } from "../../../durable-objects/protocol/transcript";
import { ToolCalls } from "./ToolCalls";

type ToolCall = Extract<MessagePart, { type: "tool_call" }>;

const call: ToolCall = {
  type: "tool_call",
  callId: "c1",
  server: "notes",
  tool: "delete_note",
  arguments: { name: "alpha" },
  status: "started",
};
const asked: ApprovalView = {
  approvalId: "ap1",
  callId: "c1",
  step: 1,
  server: "notes",
  tool: "delete_note",
  arguments: { name: "alpha" },
  expiresAt: Date.UTC(2030, 0, 1),
};
const activity = (approval?: ApprovalView): Activity => ({
  step: 1,
  maxSteps: 5,
  callSteps: { c1: 1 },
  progress: {},
  log: [],
  approvals: approval ? { ap1: approval } : {},
});
/** The call's line as a reader (or a screen reader) gets it. */
const line = (a: Activity) =>
  renderToStaticMarkup(<ToolCalls calls={[call]} activity={a} />)
    .match(/<summary>(.*?)<\/summary>/)![1]!
    .replace(/<[^>]+>/g, "");

describe("a tool call's status line", () => {
  it("says the call waits for your approval while its card asks, not that it runs", () => {
    const text = line(activity(asked));
    expect(text).toContain("(waiting for your approval)");
    expect(text).toContain("Waiting for your approval below.");
    expect(text).not.toMatch(/running/i);
  });

  it("runs once approved, and runs without an approval", () => {
    const approved = {
      ...asked,
      decided: { decision: "approve" as const, via: "rest" as const, at: 0 },
    };
    expect(line(activity(approved))).toContain("(running) — Running…");
    expect(line(activity())).toContain("(running) — Running…");
  });
});
