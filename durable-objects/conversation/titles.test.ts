// The title call against a model that thinks before it writes (OpenAI's reasoning models, Gemini
// 3): its thinking counts against the output cap, so a cap sized for the title alone gets nothing.
import { describe, expect, inject, it } from "vitest";
import type { ChatMessage } from "../protocol/messages";
import { createProvider } from "../providers/registry";
import type { ModelProvider, ModelRequest, ProviderId } from "../providers/types";
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

/** The body the provider's own SDK sent aimock for a title written by `model`. */
async function titleRequestBody(id: ProviderId, model: string): Promise<Record<string, unknown>> {
  const bodies: Array<Record<string, unknown>> = [];
  const recording: typeof fetch = async (input, init) => {
    if (typeof init?.body === "string") bodies.push(JSON.parse(init.body));
    return fetch(input, init);
  };
  const baseURL = id === "openai" ? `${inject("aimockUrl")}/v1` : inject("aimockUrl");
  const provider = createProvider(id, { apiKey: "test-key", baseURL, fetch: recording });
  await askForTitle(
    { provider, model },
    message("user", "What is the weather in Paris?", 1),
    message("assistant", "It is 21 degrees and sunny.", 2),
  );
  expect(bodies).toHaveLength(1);
  return bodies[0]!;
}

describe("the title's temperature", () => {
  it("is left at the default for Gemini 3 and later, which Google advises against lowering", async () => {
    for (const model of ["gemini-3.1-flash-lite", "gemini-3.5-flash"]) {
      const body = await titleRequestBody("gemini", model);
      expect(body.generationConfig).not.toHaveProperty("temperature");
      expect(body.generationConfig).toHaveProperty("maxOutputTokens");
    }
  });

  it("is low for the models that take one well", async () => {
    const gemini = await titleRequestBody("gemini", "gemini-2.5-flash-lite");
    expect(gemini.generationConfig).toMatchObject({ temperature: 0.2 });
    const ollama = await titleRequestBody("ollama", "qwen3:4b");
    expect(ollama.options).toMatchObject({ temperature: 0.2 });
  });
});

describe("the title's reasoning", () => {
  it("is asked to be brief of the models that reason anyway, and nothing of the others", async () => {
    const gemini3 = await titleRequestBody("gemini", "gemini-3.5-flash");
    expect(gemini3.generationConfig).toMatchObject({ thinkingConfig: { thinkingLevel: "LOW" } });
    const claude5 = await titleRequestBody("anthropic", "claude-opus-5-5");
    expect(claude5).toMatchObject({ output_config: { effort: "low" } });
    // Claude 4.5 does not think unless asked: a title does not switch its thinking on.
    const claude45 = await titleRequestBody("anthropic", "claude-haiku-4-5");
    expect(claude45).not.toHaveProperty("thinking");
    const gemini2 = await titleRequestBody("gemini", "gemini-2.0-flash");
    expect(gemini2.generationConfig).not.toHaveProperty("thinkingConfig");
  });
});
