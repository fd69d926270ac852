// "Local first" routing against the real app (`wrangler dev`): Ollama (aimock behind
// OLLAMA_BASE_URL, standing in for the tunnel) serves the steps that call tools, through our MCP
// worker; the cloud model (Anthropic, aimock too) writes the final answer. aimock's journal shows
// which provider got which request. The providers' health reads the tunnel's models.
import type { LLMock } from "@copilotkit/aimock";
import { afterAll, beforeAll, expect, it } from "vitest";
import { TITLE_INSTRUCTION } from "../../durable-objects/conversation/titles";
import { ProvidersHealth } from "../../durable-objects/protocol/provider-health";
import { applyEvent, emptyTranscript } from "../../durable-objects/protocol/transcript";
import type { ServerEvent } from "../../durable-objects/protocol/wire";
import { socketTurn } from "./socket-turn";
import { type Stack, startStack } from "./stack";

const QUESTION = "local first please: fetch two articles";
const CLOUD_ANSWER = "Written in the cloud from what the local model found.";

function addLocalFirstFixtures(mock: LLMock): void {
  // The local model: a tool call, then (with the result) a draft the cloud model replaces.
  mock.on(
    { userMessage: /local first please/, model: "qwen3:8b", toolResultContains: "2 articles." },
    { content: "I have the articles." },
  );
  mock.on(
    { userMessage: /local first please/, model: "qwen3:8b" },
    {
      toolCalls: [
        {
          id: "lf1",
          name: "mcp-remote__pubmed_fetch",
          arguments: '{"pmids":["31452104","29625052"]}',
        },
      ],
    },
  );
  // The cloud model, asked for the answer through the formatter.
  mock.on(
    { userMessage: /local first please/, model: "claude-haiku-4-5" },
    {
      toolCalls: [
        {
          name: "response_formatter",
          arguments: JSON.stringify({ conversation: [{ type: "text", content: CLOUD_ANSWER }] }),
        },
      ],
    },
  );
}

let stack: Stack;
beforeAll(async () => {
  stack = await startStack(addLocalFirstFixtures, { vars: (url) => ({ OLLAMA_BASE_URL: url }) });
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

const auth = () => ({ authorization: `Bearer ${stack.token}` });

it("sends the tool steps to the local model and the final answer to the cloud model", async () => {
  const created = await fetch(`${stack.url}/api/conversations`, {
    method: "POST",
    headers: { ...auth(), "content-type": "application/json" },
    body: JSON.stringify({
      provider: "anthropic",
      model: "claude-haiku-4-5",
      settings: { route: [{ provider: "ollama", model: "qwen3:8b" }], localFirst: true },
    }),
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const events = await socketTurn(stack, id, QUESTION);

  // Which provider got which model request (the automatic title's request left out).
  const asked = stack.mock
    .getRequests()
    .filter((r) => {
      const body = JSON.stringify(r.body);
      return body.includes("local first please") && !body.includes(TITLE_INSTRUCTION.slice(0, 40));
    })
    .map((r) => `${r.path} ${(r.body as { model?: string } | null)?.model}`);
  expect(asked).toEqual([
    "/api/chat qwen3:8b",
    "/api/chat qwen3:8b",
    "/v1/messages claude-haiku-4-5",
  ]);
  const served = events
    .filter((e): e is Extract<ServerEvent, { type: "step_model" }> => e.type === "step_model")
    .map((e) => `${e.step} ${e.provider}`);
  expect(served).toEqual(["1 ollama", "2 ollama", "2 anthropic"]);
  const answer = events.reduce(applyEvent, emptyTranscript()).messages[1]!;
  expect(answer.status).toBe("complete");
  expect(answer.content).toContainEqual(
    expect.objectContaining({ type: "tool_call", tool: "pubmed_fetch", status: "done" }),
  );
  expect(answer.content).toContainEqual({ type: "text", text: CLOUD_ANSWER });
}, 120_000);

it("reports the Ollama tunnel reachable in the providers' health, with the models it offers", async () => {
  const res = await fetch(`${stack.url}/api/providers/health`, { headers: auth() });
  expect(res.status).toBe(200);
  const { providers } = ProvidersHealth.parse(await res.json());
  const ollama = providers.find((p) => p.id === "ollama");
  expect(ollama).toMatchObject({ reachable: true });
  // aimock's /api/tags names the models its fixtures match on.
  expect(ollama!.models).toContain("qwen3:8b");
});
