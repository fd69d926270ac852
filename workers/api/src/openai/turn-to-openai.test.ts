// What an OpenAI client is shown of a turn: the answer as content, reasoning and tool activity as
// reasoning_content, and nothing of another turn that shares the conversation's stream.
import { expect, it } from "vitest";
import type { ServerEvent } from "../../../../durable-objects/protocol/wire";
import { TurnToOpenAi, type TurnStep } from "./turn-to-openai";

let seq = 0;
const e = (event: Record<string, unknown>) => ({ seq: ++seq, at: 0, ...event }) as ServerEvent;
const userMessage = (id: string, clientMessageId: string) =>
  e({
    type: "user_message",
    message: {
      id,
      role: "user",
      content: [],
      status: "complete",
      seq,
      clientMessageId,
      createdAt: 0,
    },
  });

it("maps one turn's events and ignores a queued turn of someone else's message", () => {
  const turn = new TurnToOpenAi("conv-1", "mine");
  const steps = [
    userMessage("u-other", "theirs"),
    e({
      type: "turn_started",
      turnId: "t-other",
      messageId: "a-other",
      order: 1,
      userMessageId: "u-other",
      provider: "p",
      model: "m",
    }),
    e({ type: "text_delta", messageId: "a-other", delta: "not mine" }),
    e({ type: "turn_ended", turnId: "t-other", status: "complete" }),
    userMessage("u-1", "mine"),
    e({
      type: "turn_started",
      turnId: "t-1",
      messageId: "a-1",
      order: 2,
      userMessageId: "u-1",
      provider: "p",
      model: "m",
    }),
    e({ type: "reasoning_delta", messageId: "a-1", delta: "Let me search." }),
    e({
      type: "tool_call",
      messageId: "a-1",
      step: 1,
      callId: "c1",
      server: "mcp-remote",
      tool: "pubmed_search",
      arguments: { query: "olaparib" },
    }),
    e({
      type: "tool_result",
      messageId: "a-1",
      callId: "c1",
      isError: false,
      summary: "2 articles match",
    }),
    e({ type: "text_delta", messageId: "a-1", delta: "Olaparib works." }),
    e({
      type: "message_completed",
      messageId: "a-1",
      content: [{ type: "text", text: "Olaparib works." }],
      status: "complete",
    }),
    e({ type: "turn_ended", turnId: "t-1", status: "complete" }),
  ]
    .map((event) => turn.step(event))
    .filter((s): s is TurnStep => s !== undefined);

  const content = steps.map((s) => (s.kind === "delta" ? (s.delta.content ?? "") : "")).join("");
  const reasoning = steps
    .map((s) => (s.kind === "delta" ? (s.delta.reasoning_content ?? "") : ""))
    .join("");
  expect(content).toBe("Olaparib works.");
  expect(reasoning).toBe(
    'Let me search.\n→ calling mcp-remote › pubmed_search {"query":"olaparib"}\n← mcp-remote › pubmed_search returned: 2 articles match\n',
  );
  expect(steps.at(-2)).toEqual({ kind: "completed", text: "Olaparib works." });
  expect(steps.at(-1)).toEqual({ kind: "finished", status: "complete" });
});

it("a failed turn is a failure step with the turn's own error", () => {
  const turn = new TurnToOpenAi("conv-1", "mine");
  turn.step(userMessage("u-1", "mine"));
  turn.step(
    e({
      type: "turn_started",
      turnId: "t-1",
      messageId: "a-1",
      order: 1,
      userMessageId: "u-1",
      provider: "p",
      model: "m",
    }),
  );
  expect(
    turn.step(
      e({
        type: "turn_failed",
        turnId: "t-1",
        error: { code: "provider_error", message: "overloaded" },
      }),
    ),
  ).toEqual({ kind: "failed", error: { code: "provider_error", message: "overloaded" } });
});
