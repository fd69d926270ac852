// Model turns for the guard tests (issue 16): arguments checked before a call, and streams that
// loop or never end. Registered before the catch-all answer in global-setup.ts.
import type { LLMock } from "@copilotkit/aimock";

/** A paragraph the model repeats until it is stopped. */
export const LOOPING_SENTENCE = "I will check the data again to be sure that nothing was missed. ";

export function addGuardFixtures(mock: LLMock): void {
  // A model stuck in a loop: the same sentence until its token limit.
  mock.onMessage(
    /loop forever please/,
    {
      content: `Here is my summary. ${LOOPING_SENTENCE.repeat(80)}`,
      usage: { input_tokens: 100, output_tokens: 10 },
    },
    { chunkSize: 16 },
  );
  // A valid call (it reaches the server) and the model's answer to it.
  mock.on({ toolResultContains: "Echo: after the reset" }, { content: "Echoed after the reset." });
  mock.onMessage(/echo after the reset/, {
    toolCalls: [{ id: "g1", name: "everything__echo", arguments: '{"message":"after the reset"}' }],
  });
}
