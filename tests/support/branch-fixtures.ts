// Model turns for the branching tests (durable-objects/conversation/branching/): a three-step
// turn over the library's `lookup` tool, and the answers a branch's other model gives.
import type { LLMock } from "@copilotkit/aimock";

/** The model a branch switches to: its fixtures answer differently from the origin's. */
export const BRANCH_MODEL = "claude-branch-test";

const lookup = (id: string, topic: string) => ({
  toolCalls: [{ id, name: "library__lookup", arguments: JSON.stringify({ topic }) }],
});

// Fixtures on tool results come first (a later step's request still carries the question); the
// branch model's come before the origin's, whose last tool result they also match.
export function addBranchFixtures(mock: LLMock): void {
  // A branch kept only step 1 (alpha): its model asks for alpha again, which is reused.
  mock.on(
    { toolResultContains: "You already made this exact call", model: BRANCH_MODEL },
    { content: "The branch reused the alpha lookup." },
  );
  mock.on(
    { toolResultContains: "Found: beta facts", model: BRANCH_MODEL },
    { content: "The branch answers from both lookups." },
  );
  mock.on(
    { toolResultContains: "Found: alpha facts", model: BRANCH_MODEL, userMessage: /step one/ },
    lookup("lr1", "alpha"),
  );
  mock.on({ toolResultContains: "Found: beta facts" }, { content: "Alpha and beta, first model." });
  mock.on({ toolResultContains: "Found: alpha facts" }, lookup("lb2", "beta"));
  mock.onMessage(/branch three steps/, lookup("lb1", "alpha"));
  mock.on(
    { userMessage: /answer me twice/, model: BRANCH_MODEL },
    { content: "A second answer, from the branch model." },
  );
  mock.onMessage(/answer me twice/, { content: "A first answer." });
  mock.onMessage(/an edited question/, { content: "The answer to the edited question." });
  // An answer that makes a text artifact (artifact history and titles in a branch).
  mock.onMessage(/make a snippet to branch/, {
    toolCalls: [
      {
        id: "sn1",
        name: "response_formatter",
        arguments: JSON.stringify({
          conversation: [
            { type: "text", content: "Here is the snippet." },
            {
              type: "artifact",
              artifact: { type: "code", title: "Snippet", content: "v1", language: "python" },
            },
          ],
        }),
      },
    ],
  });
}
