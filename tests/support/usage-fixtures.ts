// Model turns that report usage in the provider's own format (Anthropic's `input_tokens`,
// `output_tokens`; OpenAI's with cached and reasoning tokens), for the usage, cost and budget tests.
import type { LLMock } from "@copilotkit/aimock";

// Fixtures on tool results come first: a later step's request still carries the first question.
export function addUsageFixtures(mock: LLMock): void {
  mock.on(
    { toolResultContains: "Echo: metered lookup" },
    { content: "The metered answer.", usage: { input_tokens: 1500, output_tokens: 300 } },
  );
  mock.on(
    { userMessage: /metered question/ },
    {
      toolCalls: [
        { id: "m1", name: "everything__echo", arguments: '{"message":"metered lookup"}' },
      ],
      usage: { input_tokens: 1000, output_tokens: 200 },
    },
  );
  // A slow answer the usage tests cancel mid-stream: Anthropic counted its input at message_start.
  mock.onMessage(
    /cancelled metered answer/,
    {
      content: "This metered answer takes a while to arrive.",
      usage: { input_tokens: 100, output_tokens: 10 },
    },
    { chunkSize: 4, latency: 400 },
  );
  // OpenAI's own breakdowns (prompt_tokens_details, completion_tokens_details): aimock sends
  // them on its OpenRouter base, which the API tests use as OPENAI_BASE_URL.
  mock.onMessage(/cached and reasoning question/, {
    content: "Cached and reasoned.",
    reasoning: "Weighing what the cache holds.",
    usage: {
      prompt_tokens: 1200,
      completion_tokens: 300,
      prompt_tokens_details: { cached_tokens: 800 },
      completion_tokens_details: { reasoning_tokens: 120 },
    },
  });
}

/**
 * A conversation's title and summary calls that report usage, as the housekeeping usage test
 * asks them (before addTitleFixtures: they carry the question, which its fixtures would match).
 */
export function addHousekeepingUsageFixtures(mock: LLMock): void {
  mock.on(
    { systemMessage: "Name this conversation", userMessage: /housekeeping metered/ },
    { content: "Metered title", usage: { input_tokens: 120, output_tokens: 8 } },
  );
  mock.onMessage(/housekeeping metered question/, {
    content: "A metered plain answer.",
    usage: { input_tokens: 400, output_tokens: 50 },
  });
}
