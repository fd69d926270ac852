// Model turns that call the OAuth-protected test server's tools (oauth-protected-server.ts).
import type { LLMock } from "@copilotkit/aimock";

const answer = (text: string) => ({
  toolCalls: [
    {
      name: "response_formatter",
      arguments: JSON.stringify({ conversation: [{ type: "text", content: text }] }),
    },
  ],
});

// Fixtures on tool results come first: a later step's request still carries the question.
export function addOAuthFixtures(mock: LLMock): void {
  mock.on({ toolResultContains: "admin report for" }, answer("Here is the admin report."));
  mock.on({ toolResultContains: "needs more access" }, answer("That needs more access."));
  mock.onMessage(/admin report please/, {
    toolCalls: [{ id: "a1", name: "protected__admin_report", arguments: "{}" }],
  });
}
