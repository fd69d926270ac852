// The OpenAI-compatible endpoint as an ordinary client uses it: the official `openai` SDK against
// the real app under `wrangler dev` (aimock behind it as the provider, our MCP worker for tools).
import OpenAI from "openai";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Stack, startStack } from "./stack";

const SLOW_ANSWER = "One turn, however often you ask.";

let stack: Stack;
let client: OpenAI;
beforeAll(async () => {
  stack = await startStack((mock) => {
    // After the search result comes back, the model answers.
    mock.on(
      { toolResultContains: "articles match" },
      { content: "Olaparib prolongs progression-free survival in BRCA carriers." },
      { chunkSize: 8 },
    );
    mock.onMessage(/olaparib, via (the SDK|the Responses API)/, {
      toolCalls: [
        {
          id: "o1",
          name: "mcp-remote__pubmed_search",
          arguments: '{"query":"olaparib brca","maxResults":2}',
        },
      ],
    });
    mock.onMessage(/say hello plainly/, { content: "Hello from the edge." });
    mock.onMessage(/answer slowly, once/, { content: SLOW_ANSWER }, { chunkSize: 4, latency: 150 });
  });
  client = new OpenAI({ apiKey: stack.token, baseURL: `${stack.url}/v1`, maxRetries: 0 });
  // Starting the stack runs wrangler three times: slow on a busy machine.
}, 300_000);
afterAll(async () => {
  await stack?.stop();
});

const auth = () => ({ authorization: `Bearer ${stack.token}` });

it("lists thinking-chat and the configured providers' models", async () => {
  const ids = [];
  for await (const model of client.models.list()) ids.push(model.id);
  expect(ids[0]).toBe("thinking-chat");
  expect(ids).toContain("anthropic/claude-haiku-4-5");
  expect(ids).toContain("openai/gpt-6-luna");
  expect(ids.some((id) => id.startsWith("gemini/"))).toBe(false); // no key for it here
});

it("streams a tool-using turn in OpenAI's chunk format, then a second answer in the same conversation", async () => {
  const { data: stream, response } = await client.chat.completions
    .create({
      model: "thinking-chat",
      stream: true,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "What do we know about olaparib, via the SDK?" },
      ],
    })
    .withResponse();
  const conversationId = response.headers.get("x-conversation-id");
  expect(conversationId).toBeTruthy();

  let content = "";
  let reasoning = "";
  const finishes: (string | null)[] = [];
  for await (const chunk of stream) {
    const choice = chunk.choices[0]!;
    content += choice.delta.content ?? "";
    reasoning += (choice.delta as { reasoning_content?: string }).reasoning_content ?? "";
    finishes.push(choice.finish_reason);
  }
  expect(content).toBe("Olaparib prolongs progression-free survival in BRCA carriers.");
  expect(reasoning).toContain("→ calling mcp-remote › pubmed_search");
  expect(reasoning).toMatch(/← mcp-remote › pubmed_search returned: .*articles match/);
  expect(finishes.at(-1)).toBe("stop");

  // The turn is in the user's conversation, as the web client shows it.
  const messages = (await (
    await fetch(`${stack.url}/api/conversations/${conversationId}/messages`, { headers: auth() })
  ).json()) as { items: Array<{ role: string; content: Array<{ type: string; text?: string }> }> };
  expect(messages.items.map((m) => m.role)).toEqual(["user", "assistant"]);
  expect(messages.items[0]!.content[0]!.text).toContain("[system] Be brief.");
  expect(messages.items[1]!.content).toContainEqual({
    type: "text",
    text: "Olaparib prolongs progression-free survival in BRCA carriers.",
  });

  // Not streamed, naming that conversation: the answer lands in it.
  const { data: completion, response: second } = await client.chat.completions
    .create(
      { model: "thinking-chat", messages: [{ role: "user", content: "Now say hello plainly." }] },
      { headers: { "X-Conversation-Id": conversationId! } },
    )
    .withResponse();
  expect(second.headers.get("x-conversation-id")).toBe(conversationId);
  expect(completion.object).toBe("chat.completion");
  expect(completion.choices[0]!.message.content).toBe("Hello from the edge.");
  expect(completion.choices[0]!.finish_reason).toBe("stop");
  const after = (await (
    await fetch(`${stack.url}/api/conversations/${conversationId}/messages`, { headers: auth() })
  ).json()) as { items: unknown[] };
  expect(after.items).toHaveLength(4);
});

it("streams a tool-using turn as Responses events: the tool activity as reasoning, then the answer", async () => {
  const stream = await client.responses.create({
    model: "thinking-chat",
    input: "What do we know about olaparib, via the Responses API?",
    stream: true,
  });
  let reasoning = "";
  let answer = "";
  let final: OpenAI.Responses.Response | undefined;
  for await (const event of stream) {
    if (event.type === "response.reasoning_summary_text.delta") reasoning += event.delta;
    if (event.type === "response.output_text.delta") answer += event.delta;
    if (event.type === "response.completed") final = event.response;
  }
  expect(reasoning).toContain("→ calling mcp-remote › pubmed_search");
  expect(reasoning).toMatch(/← mcp-remote › pubmed_search returned: .*articles match/);
  expect(answer).toBe("Olaparib prolongs progression-free survival in BRCA carriers.");
  expect(final?.status).toBe("completed");
  expect(final?.output.map((item) => item.type).at(-1)).toBe("message");
  expect(final?.output[0]?.type).toBe("reasoning");

  // Not streamed, continuing by previous_response_id: the answer lands in the same conversation.
  const { data: next, response } = await client.responses
    .create({
      model: "thinking-chat",
      input: "Now say hello plainly.",
      previous_response_id: final!.id,
    })
    .withResponse();
  expect(next.output_text).toBe("Hello from the edge.");
  const conversationId = response.headers.get("x-conversation-id");
  expect(final!.id.startsWith(`resp_${conversationId}_`)).toBe(true);
  const messages = (await (
    await fetch(`${stack.url}/api/conversations/${conversationId}/messages`, { headers: auth() })
  ).json()) as { items: unknown[] };
  expect(messages.items).toHaveLength(4);
});

it("refuses an unknown model, someone else's conversation and a bad token the way the SDK expects", async () => {
  await expect(
    client.chat.completions.create({
      model: "nonsense",
      messages: [{ role: "user", content: "hi" }],
    }),
  ).rejects.toMatchObject({ status: 404, message: expect.stringMatching(/GET \/v1\/models/) });
  await expect(
    client.chat.completions.create(
      { model: "thinking-chat", messages: [{ role: "user", content: "hi" }] },
      { headers: { "X-Conversation-Id": "not-mine" } },
    ),
  ).rejects.toMatchObject({ status: 404 });
  const stranger = new OpenAI({ apiKey: "tc_wrong", baseURL: `${stack.url}/v1`, maxRetries: 0 });
  await expect(stranger.models.list()).rejects.toMatchObject({ status: 401 });
});

it("a request resent with its Idempotency-Key after the connection dropped follows the one turn it started", async () => {
  const key = `e2e-${crypto.randomUUID()}`;
  const ask = () =>
    client.chat.completions
      .create(
        {
          model: "thinking-chat",
          stream: true,
          messages: [{ role: "user", content: "Please answer slowly, once." }],
        },
        { headers: { "Idempotency-Key": key } },
      )
      .withResponse();
  const dropped = await ask();
  for await (const chunk of dropped.data) if (chunk.choices[0]?.delta.content) break; // hangs up
  const conversationId = dropped.response.headers.get("x-conversation-id");

  const resent = await ask();
  expect(resent.response.headers.get("x-conversation-id")).toBe(conversationId);
  let content = "";
  for await (const chunk of resent.data) content += chunk.choices[0]?.delta.content ?? "";
  expect(content).toBe(SLOW_ANSWER);

  const messages = (await (
    await fetch(`${stack.url}/api/conversations/${conversationId}/messages`, { headers: auth() })
  ).json()) as { items: Array<{ role: string }> };
  expect(messages.items.map((m) => m.role)).toEqual(["user", "assistant"]);
});
