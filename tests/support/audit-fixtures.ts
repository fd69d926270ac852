// Model turns for the audit-log tests: a three-step turn whose second step's call waits for the
// user's approval (on the notes server of approval-server.ts).
import type { LLMock } from "@copilotkit/aimock";

// Fixtures on tool results come first: a later step's request still carries the first question.
export function addAuditFixtures(mock: LLMock): void {
  mock.on(
    { userMessage: /audited approval question/, toolResultContains: "Deleted note audited" },
    {
      toolCalls: [
        {
          id: "aa3",
          name: "response_formatter",
          arguments: JSON.stringify({
            conversation: [{ type: "text", content: "Listed the notes and deleted one." }],
          }),
        },
      ],
    },
  );
  mock.on(
    { userMessage: /audited approval question/, toolResultContains: "Notes: old, new" },
    { toolCalls: [{ id: "aa2", name: "notes__delete_note", arguments: '{"name":"audited"}' }] },
  );
  mock.onMessage(/audited approval question/, {
    toolCalls: [{ id: "aa1", name: "notes__list_notes", arguments: "{}" }],
  });
}
