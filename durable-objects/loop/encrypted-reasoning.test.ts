// An OpenAI reasoning model's reasoning carries over between the steps of a turn: its encrypted
// reasoning comes back before the calls it led to, through the real OpenAI adapter (Responses API)
// fed recorded streams, so the model continues from it instead of reasoning afresh.
import { expect, it } from "vitest";
import { createProvider } from "../providers/registry";
import { LOOKUP, runScripted } from "./test/scripted-loop";

/** Serves one recorded Responses stream per request, and keeps each request's body. */
function recordedOpenAI(streams: Array<Array<{ type: string; [field: string]: unknown }>>) {
  const bodies: Array<Record<string, unknown>> = [];
  const fetch: typeof globalThis.fetch = async (_input, init) => {
    bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
    const events = streams[bodies.length - 1] ?? [];
    return new Response(
      events
        .map((e, i) => ({ ...e, sequence_number: i }))
        .map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`)
        .join(""),
      { headers: { "content-type": "text/event-stream" } },
    );
  };
  return { bodies, provider: createProvider("openai", { apiKey: "k", fetch }) };
}

const completed = (id: string) => ({
  type: "response.completed",
  response: {
    id,
    status: "completed",
    output: [],
    usage: { input_tokens: 10, output_tokens: 50, output_tokens_details: { reasoning_tokens: 40 } },
  },
});
const call = {
  type: "function_call",
  id: "fc_1",
  call_id: "call_1",
  name: "kb__lookup",
  arguments: '{"q":"x"}',
};

it("sends a reasoning model's encrypted reasoning back before its calls, on the next step", async () => {
  const { provider, bodies } = recordedOpenAI([
    [
      {
        type: "response.output_item.done",
        output_index: 0,
        item: { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "sealed-1" },
      },
      { type: "response.output_item.added", output_index: 1, item: { ...call, arguments: "" } },
      { type: "response.output_item.done", output_index: 1, item: call },
      completed("resp_1"),
    ],
    [
      {
        type: "response.output_text.delta",
        item_id: "msg_1",
        output_index: 0,
        content_index: 0,
        delta: "Found it.",
      },
      completed("resp_2"),
    ],
  ]);
  const { outcome } = await runScripted({
    steps: [],
    tools: [LOOKUP],
    deps: { provider },
    input: { model: "gpt-6-luna", maxTokens: 1000 },
  });
  expect(outcome.status).toBe("complete");
  expect(bodies).toHaveLength(2);
  for (const body of bodies)
    expect(body).toMatchObject({ include: ["reasoning.encrypted_content"], store: false });
  const input = bodies[1]?.input as Array<Record<string, unknown>>;
  const at = input.findIndex((item) => item.type === "reasoning");
  expect(input[at]).toEqual({
    type: "reasoning",
    id: "rs_1",
    encrypted_content: "sealed-1",
    summary: [],
  });
  expect(input[at + 1]).toMatchObject({ type: "function_call", call_id: "call_1" });
  expect(input[at + 2]).toMatchObject({ type: "function_call_output", call_id: "call_1" });
});
