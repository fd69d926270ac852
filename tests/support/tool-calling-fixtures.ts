// Model turns for the tool-calling tests: a model in prompt mode that calls a tool with a
// tool_call block in its text (streamed in small chunks, so the block arrives split), and a model
// offered a capped share of 300 tools that finds the one it needs with find_tools.
import type { LLMock } from "@copilotkit/aimock";

export const PROMPT_MODE_ECHO = "prompt mode finding";

export function addToolCallingFixtures(mock: LLMock): void {
  // Prompt mode: results come back as a user message (see with-prompt-tools.ts).
  mock.on(
    { userMessage: `Result of everything__echo (ok):\nEcho: ${PROMPT_MODE_ECHO}` },
    { content: `The echo said: ${PROMPT_MODE_ECHO}.` },
  );
  mock.on(
    { userMessage: /tc-prompt-mode question/ },
    {
      content:
        "Let me check.\n```tool_call\n" +
        JSON.stringify({ name: "everything__echo", arguments: { message: PROMPT_MODE_ECHO } }) +
        "\n```\n",
    },
    { chunkSize: 7 },
  );
  // 300 tools: the model searches for the one it needs, then calls it once it is offered.
  mock.on(
    { userMessage: /tc-many-tools question/, hasToolResult: false },
    {
      toolCalls: [{ id: "ft1", name: "find_tools", arguments: '{"query":"serum ferritin"}' }],
    },
  );
  mock.on(
    { toolResultContains: "lab__measure_serum_ferritin" },
    {
      toolCalls: [
        { id: "mt1", name: "lab__measure_serum_ferritin", arguments: '{"sample":"S-7"}' },
      ],
    },
  );
  mock.on(
    { toolResultContains: "Ferritin of sample S-7" },
    { content: "Sample S-7 has a ferritin of 85 ng/mL." },
  );
}
