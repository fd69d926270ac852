// Model turns for the context tests (history with tool calls, the window, length refusals).
import type { LLMock } from "@copilotkit/aimock";

const lastUserText = (messages: Array<{ role: string; content?: unknown }>): string => {
  const last = [...messages].reverse().find((m) => m.role === "user");
  return typeof last?.content === "string" ? last.content : JSON.stringify(last?.content ?? "");
};

/**
 * Title requests (titles.ts) first: they carry the question, which other fixtures would match.
 * They report no tokens (aimock would estimate some for OpenAI), so the usage a test expects is
 * its answers' alone; housekeeping-usage.test.ts counts a title call that reports some.
 */
export function addTitleFixtures(mock: LLMock): void {
  const free = { usage: { input_tokens: 0, output_tokens: 0 } };
  mock.on(
    { systemMessage: "Name this conversation", userMessage: /ctx-title/ },
    { content: "« Effets secondaires de la metformine »", ...free },
  );
  mock.on({ systemMessage: "Name this conversation" }, { content: "A mock conversation", ...free });
  mock.on(
    { systemMessage: "running summary of a conversation" },
    { content: "The user asked about ctx-summary topics; facts: the dose is 500 mg.", ...free },
  );
}

export function addContextFixtures(mock: LLMock): void {
  // A first turn that uses a tool; the follow-up question goes to the catch-all reply.
  mock.on(
    { userMessage: /ctx-followup-first/, hasToolResult: false },
    {
      toolCalls: [
        { id: "ctx-fu-1", name: "everything__echo", arguments: '{"message":"spleen finding 42"}' },
      ],
    },
  );
  mock.on(
    { toolResultContains: "Echo: spleen finding 42" },
    { content: "The tool found spleen finding 42." },
  );
  // A provider that refuses a long request for its length, and takes the shorter one.
  mock.on(
    {
      predicate: (req) =>
        lastUserText(req.messages).includes("ctx-too-long") && req.messages.length > 16,
    },
    {
      error: {
        message: "prompt is too long: 250000 tokens > 200000 maximum",
        type: "invalid_request_error",
      },
      status: 400,
    },
  );
  mock.on({ userMessage: /ctx-too-long/ }, { content: "Short enough now." });
}
