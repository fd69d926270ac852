// What aimock answers both apps of `npm run bench -- peer` (one aimock, OpenAI chat completions
// for both). The plain answer is the same for both; each app's three-step turn calls two cheap
// tools it has without approval: ours two PubMed tools of our MCP worker (answered by the recorded
// outside-API server), the peer its in-process getWeather and calculate. aimock answers with the
// first fixture that matches, so later steps come first.
import type { LLMock } from "@copilotkit/aimock";
import { TITLE_INSTRUCTION } from "../../../durable-objects/conversation/titles";

export const PLAIN_DELTAS = 50;
const CHUNK = 4;
/** The user messages that pick each answer. */
export const PROMPTS = {
  plain: "plain",
  oursThreeSteps: "ours: three steps",
  peerThreeSteps: "peer: three steps",
} as const;

export function peerBenchFixtures(mock: LLMock): void {
  // Ours names a new conversation after its first answer (titles.ts) with at most 40 tokens; a
  // model answers that with a few words, not with the 50-delta answer its user message matches.
  mock.on({ systemMessage: TITLE_INSTRUCTION }, { content: "A plain question" }, { latency: 0 });
  mock.onMessage(
    /plain/,
    { content: "x".repeat(PLAIN_DELTAS * CHUNK) },
    { chunkSize: CHUNK, latency: 0 },
  );

  // Ours: search PubMed, fetch one article, answer.
  mock.on({ toolResultContains: "1 articles." }, { content: "One article found." });
  mock.on(
    { toolResultContains: "articles match" },
    {
      toolCalls: [
        { id: "o2", name: "mcp-remote__pubmed_fetch", arguments: '{"pmids":["31452104"]}' },
      ],
    },
  );
  mock.onMessage(/ours: three steps/, {
    toolCalls: [{ id: "o1", name: "mcp-remote__pubmed_search", arguments: '{"query":"aspirin"}' }],
  });

  // The peer: the weather in Paris, a small sum (no approval below 1,000), answer.
  mock.on({ toolResultContains: '"expression"' }, { content: "Sunny enough, and 6 * 7 = 42." });
  mock.on(
    { toolResultContains: '"celsius"' },
    {
      toolCalls: [{ id: "p2", name: "calculate", arguments: '{"a":6,"b":7,"operator":"*"}' }],
    },
  );
  mock.onMessage(/peer: three steps/, {
    toolCalls: [{ id: "p1", name: "getWeather", arguments: '{"city":"Paris"}' }],
  });
}

/**
 * Throws unless the model requests aimock saw since `from` (the title request left out) were the
 * three steps above in order: a call, a call, the answer. A tool that failed would send the turn
 * down another path and make its figure meaningless.
 */
export function assertThreeSteps(mock: LLMock, from: number, app: string): void {
  const steps = mock
    .getRequests()
    .slice(from)
    .filter((r) => !JSON.stringify(r.body ?? "").includes(TITLE_INSTRUCTION.slice(0, 40)));
  const served = steps.map((r) => {
    const response = r.response.fixture?.response;
    if (r.response.status !== 200 || !response || typeof response === "function")
      return "unmatched";
    return "toolCalls" in response ? "call" : "answer";
  });
  if (served.join(",") !== "call,call,answer")
    throw new Error(
      `${app}'s three-step turn did not run as scripted: the model was asked ${steps.length} times (${served.join(", ")}); a tool probably failed`,
    );
}
