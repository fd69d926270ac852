// The title call against a model that thinks before it writes (OpenAI's reasoning models, Gemini
// 3): its thinking counts against the output cap, so a cap sized for the title alone gets nothing.
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../protocol/messages";
import type { ModelProvider, ModelRequest } from "../providers/types";
import { askForTitle } from "./titles";

const message = (role: ChatMessage["role"], text: string, seq: number): ChatMessage => ({
  id: `m${seq}`,
  role,
  content: [{ type: "text", text }],
  status: "complete",
  seq,
  createdAt: 0,
});

/** Spends `thinking` output tokens before its answer, as reasoning models do within the cap. */
function thinkingModel(
  thinking: number,
  answer: string,
): ModelProvider & { asked: ModelRequest[] } {
  const asked: ModelRequest[] = [];
  return {
    id: "openai",
    asked,
    async *stream(request) {
      asked.push(request);
      const cap = request.maxTokens ?? Infinity;
      if (cap <= thinking) {
        yield { type: "usage", inputTokens: 100, outputTokens: cap, reasoningTokens: cap };
        yield { type: "finish", reason: "length" };
        return;
      }
      yield { type: "text_delta", text: answer };
      yield {
        type: "usage",
        inputTokens: 100,
        outputTokens: thinking + 5,
        reasoningTokens: thinking,
      };
      yield { type: "finish", reason: "stop" };
    },
  };
}

describe("the conversation's title", () => {
  it("is written by a model that thinks a few hundred tokens first", async () => {
    const model = thinkingModel(400, "Weather in Paris\n");
    const title = await askForTitle(
      { provider: model, model: "gpt-6-luna" },
      message("user", "What is the weather in Paris?", 1),
      message("assistant", "It is 21 degrees and sunny.", 2),
    );
    expect(title).toBe("Weather in Paris");
    expect(model.asked).toHaveLength(1);
  });
});
