// Model turns for the provider-switch tests. Each pair has its own marker: turn 1 (on the first
// provider) calls server-everything's echo tool and answers from its result; turn 2 (on the
// second provider) answers in plain text. aimock reads every wire format into one shape, so the
// same fixtures serve all four providers.
import type { LLMock } from "@copilotkit/aimock";
import { PROVIDER_IDS } from "../../durable-objects/providers/registry";
import type { OwnAnswer } from "./wire-recorder";

/** An Ollama model without native tools (one the app does not know lacks them). */
export const NATIVELESS_MODEL = "nativeless:7b";

/** Ollama's refusal of `tools` for NATIVELESS_MODEL, as Ollama words it (aimock takes them). */
export const refuseNativeTools: OwnAnswer = ({ path, body }) => {
  const request = body as { model?: string; tools?: unknown[] };
  if (path !== "/api/chat" || request.model !== NATIVELESS_MODEL || !request.tools?.length)
    return undefined;
  return {
    status: 400,
    body: { error: `registry.ollama.ai/library/${NATIVELESS_MODEL} does not support tools` },
  };
};

export const switchPairs = PROVIDER_IDS.flatMap((from) =>
  PROVIDER_IDS.filter((to) => to !== from).map((to) => ({ from, to })),
);

export const REUSED_CALL_ID = "functions.everything__echo:0";

export const pairMarker = (from: string, to: string) => `switch-${from}-to-${to}`;
/** What the tool is asked to echo in turn 1; its result is "Echo: " followed by this. */
export const echoed = (marker: string) => `finding of ${marker}`;

export function addSwitchFixtures(mock: LLMock): void {
  // The automatic title's request quotes the question: answer it before the turn fixtures can.
  mock.on({ systemMessage: "Name this conversation" }, { content: "A switched conversation" });
  mock.on({ userMessage: "nativeless" }, { content: "Answered with the tools in my prompt." });
  for (const { from, to } of switchPairs) {
    const marker = pairMarker(from, to);
    mock.on(
      { userMessage: `${marker} first`, hasToolResult: false },
      {
        toolCalls: [
          {
            // As OpenAI-compatible servers (vLLM and others) number calls: characters Anthropic
            // refuses in an id. Ollama's wire format has no ids (the adapter makes its own).
            id: REUSED_CALL_ID,
            name: "everything__echo",
            arguments: JSON.stringify({ message: echoed(marker) }),
          },
        ],
      },
    );
    mock.on(
      { toolResultContains: `Echo: ${echoed(marker)}` },
      { content: `The tool found the ${marker} finding.` },
    );
    mock.on({ userMessage: `${marker} second` }, { content: `Answered on ${to}.` });
  }
  // An OpenAI-compatible server that numbers calls per answer: the same id in two turns.
  for (const turn of ["one", "two"]) {
    mock.on(
      { userMessage: `renumbered ${turn}`, hasToolResult: false },
      {
        toolCalls: [
          {
            id: REUSED_CALL_ID,
            name: "everything__echo",
            arguments: JSON.stringify({ message: `renumbered finding ${turn}` }),
          },
        ],
      },
    );
    mock.on(
      { toolResultContains: `Echo: renumbered finding ${turn}` },
      { content: `Found ${turn}.` },
    );
  }
  mock.on({ userMessage: "renumbered three" }, { content: "Answered on anthropic." });
  mock.onMessage(/.*/, { content: "Unexpected request in the provider-switch tests." });
}
