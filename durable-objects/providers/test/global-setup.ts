// aimock on 127.0.0.1 speaking all four providers' wire protocols, from these fixtures.
import { LLMock } from "@copilotkit/aimock";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    providerMockUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const mock = new LLMock({ host: "127.0.0.1", port: 0, logLevel: "silent" });
  const usage = {
    input_tokens: 12,
    output_tokens: 9,
    prompt_tokens: 12,
    completion_tokens: 9,
    total_tokens: 21,
    promptTokenCount: 12,
    candidatesTokenCount: 9,
    totalTokenCount: 21,
  };
  mock.onMessage(
    /case:text/,
    { content: "The quick brown fox jumps over the lazy dog.", usage },
    { chunkSize: 5 },
  );
  mock.onMessage(
    /case:reasoning/,
    { content: "Forty-two.", reasoning: "Let me think about the question carefully." },
    { chunkSize: 6 },
  );
  mock.onMessage(
    /case:one-tool/,
    {
      toolCalls: [
        {
          id: "call_1",
          name: "get_weather",
          arguments: JSON.stringify({ city: "Paris", units: "celsius", days: [1, 2, 3] }),
        },
      ],
    },
    { chunkSize: 4 },
  );
  mock.onMessage(
    /case:two-tools/,
    {
      toolCalls: [
        { id: "call_a", name: "get_weather", arguments: '{"city":"Paris"}' },
        { id: "call_b", name: "get_time", arguments: '{"zone":"Europe/Paris"}' },
      ],
    },
    { chunkSize: 3 },
  );
  mock.on({ toolResultContains: "21C" }, { content: "It is 21 degrees in Paris." });
  mock.onMessage(/case:401/, {
    error: { message: "invalid x-api-key", type: "authentication_error" },
    status: 401,
  });
  mock.onMessage(/case:429/, {
    error: { message: "slow down", type: "rate_limit_error" },
    status: 429,
    retryAfter: 2,
  });
  mock.onMessage(/case:500/, { error: { message: "boom", type: "api_error" }, status: 500 });
  mock.onMessage(
    /case:dropped/,
    { content: "This answer will be cut off long before it is finished, sadly." },
    { chunkSize: 4, truncateAfterChunks: 3 },
  );
  await mock.start();
  project.provide("providerMockUrl", mock.url);
  return () => mock.stop();
}
