// The share of the window the older messages must pass before the rolling summary starts: 25 %
// unless the conversation sets summaryThresholdPercent.
import { describe, expect, it } from "vitest";
import { ConversationSettings } from "../protocol/rest";
import type { ChatMessage } from "../protocol/messages";
import { dueForSummary } from "./summary";

/** 20 messages of about 100 tokens each: the 14 older ones are about 15 % of a 10 000 window. */
const messages: ChatMessage[] = Array.from({ length: 20 }, (_, i) => ({
  id: `m${i}`,
  role: i % 2 === 0 ? "user" : "assistant",
  content: [{ type: "text", text: `message ${i} `.padEnd(400, "lorem ipsum ") }],
  status: "complete",
  seq: i + 1,
  createdAt: 0,
}));

const conversation = (settings: ConversationSettings) => ({
  provider: "anthropic" as const,
  model: "claude-sonnet-4-6",
  settings: { contextWindow: 10_000, ...settings },
});

describe("the summary threshold", () => {
  it("waits for a quarter of the window by default", () => {
    expect(dueForSummary(messages, null, conversation({}))).toEqual([]);
  });

  it("starts earlier when the conversation lowers it", () => {
    const due = dueForSummary(messages, null, conversation({ summaryThresholdPercent: 10 }));
    expect(due.map((m) => m.seq)).toEqual(Array.from({ length: 14 }, (_, i) => i + 1));
  });

  it("accepts 5 to 90 percent only", () => {
    expect(ConversationSettings.safeParse({ summaryThresholdPercent: 4 }).success).toBe(false);
    expect(ConversationSettings.safeParse({ summaryThresholdPercent: 91 }).success).toBe(false);
    expect(ConversationSettings.safeParse({ summaryThresholdPercent: 50 }).success).toBe(true);
  });
});
