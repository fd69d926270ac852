import { describe, expect, it } from "vitest";
import type { NeutralMessage } from "../providers/types";
import { TokenEstimator } from "./context-budget";
import { assembleHistory, shrinkForRetry } from "./history-assembly";

const user = (text: string): NeutralMessage => ({
  role: "user",
  content: [{ type: "text", text }],
});
const answer = (text: string): NeutralMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
});
const toolTurn = (n: number): NeutralMessage[] => [
  user(`question ${n}`),
  {
    role: "assistant",
    content: [{ type: "tool_call", id: `c${n}`, name: "srv__search", arguments: { q: n } }],
  },
  {
    role: "tool",
    content: [
      {
        type: "tool_result",
        callId: `c${n}`,
        name: "srv__search",
        content: [{ type: "text", text: "x".repeat(400) }],
      },
    ],
  },
  answer(`answer ${n}`),
];

describe("assembleHistory", () => {
  const estimate = new TokenEstimator();
  const history = [...Array.from({ length: 50 }, (_, i) => toolTurn(i + 1)).flat(), user("now")];

  it("keeps the newest turns that fit and never splits a call from its result", () => {
    const { messages, omittedMessages } = assembleHistory(history, 1_000, estimate);
    expect(messages.at(-1)).toEqual(user("now"));
    expect(messages[0]?.role).toBe("user");
    expect(omittedMessages + messages.length).toBe(history.length);
    expect(estimate.messages(messages)).toBeLessThanOrEqual(1_000);
    // Every kept call has its result right after it.
    messages.forEach((m, i) => {
      if (m.content.some((p) => p.type === "tool_call")) expect(messages[i + 1]?.role).toBe("tool");
    });
    expect(JSON.stringify(messages)).toContain("answer 50");
    expect(JSON.stringify(messages)).not.toContain('answer 1"');
  });

  it("sends everything when it all fits", () => {
    const { messages, omittedMessages } = assembleHistory(history, 1_000_000, estimate);
    expect(messages).toEqual(history);
    expect(omittedMessages).toBe(0);
  });

  it("keeps the current turn whole even when it alone is over the budget", () => {
    const long = user("y".repeat(10_000));
    const { messages } = assembleHistory([...history.slice(0, -1), long], 100, estimate);
    expect(messages).toEqual([long]);
  });

  it("shrinks a refused request to about half of its earlier turns, the current turn's steps kept", () => {
    const steps = toolTurn(99).slice(1, 3);
    const request = [...history, ...steps];
    const { messages, omittedMessages } = shrinkForRetry(request, estimate);
    expect(messages.slice(-3)).toEqual([user("now"), ...steps]);
    expect(omittedMessages).toBeGreaterThanOrEqual(90);
    expect(omittedMessages).toBeLessThanOrEqual(110);
  });
});
