// Model turns that report usage in Anthropic's own format (`input_tokens`, `output_tokens`), for
// the usage, cost and budget tests.
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
}
