// Claude's thinking carries over between the steps of a turn: the real Anthropic adapter against
// aimock in strict mode, which refuses (as Anthropic does, with a 400) a tool-loop step whose
// assistant turn does not start with the thinking blocks Claude wrote, signed or redacted.
import { expect, it } from "vitest";
import { LOOKUP, runScripted } from "../../loop/test/scripted-loop";
import { createProvider } from "../registry";
import { mockConfig, recordingFetch } from "../test/harness";
import type { ReasoningEffort } from "../types";

async function thinkingTurn(model: string, reasoningEffort: ReasoningEffort) {
  const { fetch, bodies } = recordingFetch();
  const provider = createProvider(
    "anthropic",
    mockConfig("anthropic", { fetch, headers: { "X-AIMock-Strict": "true" } }),
  );
  const run = await runScripted({
    steps: [],
    tools: [LOOKUP],
    answer: () => ({
      ok: true,
      result: { content: [{ type: "text", text: "thinking-loop: 42" }] },
    }),
    deps: { provider },
    input: {
      model,
      reasoningEffort,
      maxTokens: 2000,
      history: [{ role: "user", content: [{ type: "text", text: "case:think-then-look-up" }] }],
    },
  });
  return { ...run, bodies };
}

it("sends a step's thinking blocks back ahead of its calls, so Claude's next step is accepted", async () => {
  const { outcome, bodies, events } = await thinkingTurn("claude-haiku-4-5", "medium");
  expect(outcome.status).toBe("complete");
  expect(bodies).toHaveLength(2);
  expect(bodies[0]).toMatchObject({ thinking: { type: "enabled", budget_tokens: 8192 } });
  const messages = bodies[1]?.messages as Array<{ role: string; content: unknown[] }>;
  expect(messages[1]).toEqual({
    role: "assistant",
    content: [
      { type: "redacted_thinking", data: "sealed-think-1" },
      {
        type: "thinking",
        thinking: "The answer is in the knowledge base; look it up.",
        signature: "sig-think-1",
      },
      { type: "tool_use", id: "toolu_think_1", name: "kb__lookup", input: { q: "answer" } },
    ],
  });
  // The user saw the thinking as it streamed, and the answer.
  const shown = (type: string) =>
    events.flatMap((e) => (e.type === type && "delta" in e ? [e.delta] : [])).join("");
  expect(shown("reasoning_delta")).toBe("The answer is in the knowledge base; look it up.");
  expect(shown("text_delta")).toBe("The knowledge base says 42.");
});

it("does the same for the adaptive thinking of Claude 4.6 and later", async () => {
  const { outcome, bodies } = await thinkingTurn("claude-opus-5", "high");
  expect(outcome.status).toBe("complete");
  expect(bodies[0]).toMatchObject({
    thinking: { type: "adaptive", display: "summarized" },
    output_config: { effort: "high" },
  });
  const messages = bodies[1]?.messages as Array<{ role: string; content: Array<{ type: string }> }>;
  expect(messages[1]?.content.map((b) => b.type)).toEqual([
    "redacted_thinking",
    "thinking",
    "tool_use",
  ]);
});
