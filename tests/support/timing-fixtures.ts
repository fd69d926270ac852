// Model turns for the step-timings tests: the first request fails once with a 503 (the retry
// policy waits and tries again), the model takes a set time to its first token, and the step
// calls two MCP servers, one of them with a tool that runs for a set time.
import type { LLMock } from "@copilotkit/aimock";

/** The model's time to first token in the timed turn's steps (ms). */
export const TIMED_FIRST_TOKEN_MS = { step1: 400, step2: 300 };
/** How long server-everything's long-running operation of the timed turn runs (ms). */
export const TIMED_TOOL_MS = 1000;

// Fixtures on tool results come first: a later step's request still carries the first question.
export function addTimingFixtures(mock: LLMock): void {
  mock.on(
    { userMessage: /timed question/, toolResultContains: "Notes: old, new" },
    { content: "The timed answer." },
    { streamingProfile: { ttft: TIMED_FIRST_TOKEN_MS.step2 } },
  );
  mock.on(
    { userMessage: /timed question/, sequenceIndex: 0 },
    { error: { message: "Overloaded for a moment", type: "api_error" }, status: 503 },
  );
  mock.onMessage(
    /timed question/,
    {
      toolCalls: [
        {
          id: "t1",
          name: "everything__trigger-long-running-operation",
          arguments: JSON.stringify({ duration: TIMED_TOOL_MS / 1000, steps: 2 }),
        },
        { id: "t2", name: "notes__list_notes", arguments: "{}" },
      ],
    },
    { streamingProfile: { ttft: TIMED_FIRST_TOKEN_MS.step1 } },
  );
}
