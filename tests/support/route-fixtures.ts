// Model turns for the routing tests (issue 18). Registered before the catch-all answer in
// global-setup.ts; they match on the model asked, which is how a test tells the route's models apart.
import type { LLMock } from "@copilotkit/aimock";

/** The answer of the model a step falls back to after unusable tool calls. */
export const USABLE_ANSWER = "Answered by the model that could use the tools.";

export function addRouteFixtures(mock: LLMock): void {
  // claude-haiku-4-5 calls a tool nobody offered, every step (each call answers the last one's
  // result); claude-opus-4-1 answers.
  const bad = (id: string) => ({
    toolCalls: [{ id, name: "lookup_weather", arguments: '{"city":"Oslo"}' }],
  });
  for (const [after, id] of [
    ["bad1", "bad2"],
    ["bad2", "bad3"],
    ["bad3", "bad4"],
  ])
    mock.on(
      { userMessage: /tool calls go wrong/, model: "claude-haiku-4-5", toolCallId: after },
      bad(id!),
    );
  mock.on({ userMessage: /tool calls go wrong/, model: "claude-haiku-4-5" }, bad("bad1"));
  mock.on(
    { userMessage: /tool calls go wrong/, model: "claude-opus-4-1" },
    { content: USABLE_ANSWER },
  );
}
