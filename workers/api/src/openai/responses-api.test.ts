// POST /v1/responses as the official `openai` SDK calls it: a message in one of the user's
// conversations, answered as a response object or as Responses events, continued by
// previous_response_id; what it cannot read is refused in words that say what to send.
import type OpenAI from "openai";
import { openAiClient } from "../../../../tests/support/openai-client";
import { beforeAll, describe, expect, it } from "vitest";
import { api, createUser, errorOf, type TestUser } from "../../../../tests/support/helpers";
import type { ChatMessage } from "../../../../durable-objects/protocol/messages";

let user: TestUser;
let client: OpenAI;
beforeAll(async () => {
  user = await createUser();
  client = openAiClient(user);
});

async function messagesOf(conversationId: string): Promise<ChatMessage[]> {
  const res = await api(user, `/api/conversations/${conversationId}/messages`);
  return ((await res.json()) as { items: ChatMessage[] }).items;
}

const textOf = (message: ChatMessage | undefined) =>
  (message?.content ?? []).flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");

describe("/v1/responses", () => {
  it("answers with a response whose output_text is the answer, in a new conversation", async () => {
    const { data: response, response: http } = await client.responses
      .create({ model: "thinking-chat", instructions: "Be brief.", input: "Say hello, please." })
      .withResponse();
    expect(response.status).toBe("completed");
    expect(response.output_text).toBe("Hello! I am a mock model.");
    const conversationId = http.headers.get("x-conversation-id")!;
    expect(response.id).toMatch(new RegExp(`^resp_${conversationId}_`));
    const stored = await messagesOf(conversationId);
    expect(stored.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(textOf(stored[0])).toContain("[system] Be brief.");
    expect(textOf(stored[1])).toBe("Hello! I am a mock model.");
  }, 60_000);

  it("streams Responses events, and previous_response_id continues the same conversation", async () => {
    const first = await client.responses.create({
      model: "thinking-chat",
      input: "First question.",
    });
    const events: string[] = [];
    let text = "";
    let completed: OpenAI.Responses.Response | undefined;
    const stream = await client.responses.create({
      model: "thinking-chat",
      input: [{ role: "user", content: [{ type: "input_text", text: "Second question." }] }],
      previous_response_id: first.id,
      stream: true,
    });
    for await (const event of stream) {
      events.push(event.type);
      if (event.type === "response.output_text.delta") text += event.delta;
      if (event.type === "response.completed") completed = event.response;
    }
    expect(events.slice(0, 2)).toEqual(["response.created", "response.in_progress"]);
    expect(events.at(-1)).toBe("response.completed");
    expect(events).toContain("response.output_item.done");
    expect(text).toBe("Hello! I am a mock model.");
    // The answer last; before it, reasoning items (here a notice: this test's MCP worker is down).
    expect(completed?.output.at(-1)).toEqual(
      expect.objectContaining({
        type: "message",
        role: "assistant",
        content: [expect.objectContaining({ type: "output_text", text })],
      }),
    );
    expect(completed?.output.slice(0, -1).every((item) => item.type === "reasoning")).toBe(true);
    const conversationId = /^resp_(.+)_[^_]+$/.exec(first.id)![1]!;
    const stored = await messagesOf(conversationId);
    expect(stored.filter((m) => m.role === "user").map(textOf)).toEqual([
      "First question.",
      "Second question.",
    ]);
  }, 60_000);

  it("asks for the reasoning effort a client sends, for that message only", async () => {
    const { response: http } = await client.responses
      .create({
        model: "thinking-chat",
        input: "Say hello, please.",
        reasoning: { effort: "high" },
      })
      .withResponse();
    const conversationId = http.headers.get("x-conversation-id")!;
    const audit = await api(user, `/api/conversations/${conversationId}/audit`);
    const first = JSON.parse((await audit.text()).split("\n")[0]!) as Record<string, unknown>;
    expect(first).toMatchObject({ kind: "model_request", settings: { reasoningEffort: "high" } });
    const conversation = await api(user, `/api/conversations/${conversationId}`);
    const { settings } = (await conversation.json()) as { settings: Record<string, unknown> };
    expect(settings).not.toHaveProperty("reasoningEffort");

    const minimal = await api(user, "/v1/chat/completions", {
      method: "POST",
      json: {
        model: "thinking-chat",
        messages: [{ role: "user", content: "hi" }],
        reasoning_effort: "minimal",
      },
    });
    expect(minimal.status).toBe(400);
    expect((await errorOf(minimal)).message).toMatch(
      /reasoning_effort 'minimal'.*low, medium or high/,
    );
  }, 60_000);

  it("refuses what it cannot read, saying what to send", async () => {
    const send = (json: unknown) => api(user, "/v1/responses", { method: "POST", json });
    const toolOutput = await send({
      model: "thinking-chat",
      input: [{ type: "function_call_output", call_id: "c1", output: "42" }],
    });
    expect(toolOutput.status).toBe(400);
    expect((await errorOf(toolOutput)).message).toMatch(/input\[0\].*only messages/);

    const image = await send({
      model: "thinking-chat",
      input: [{ role: "user", content: [{ type: "input_image", image_url: "https://x/y.png" }] }],
    });
    expect(image.status).toBe(400);
    expect((await errorOf(image)).message).toMatch(/input_image.*input_text/);

    const foreign = await send({
      model: "thinking-chat",
      input: "hi",
      previous_response_id: "resp_abc123",
    });
    expect(foreign.status).toBe(400);
    expect((await errorOf(foreign)).message).toMatch(/previous_response_id.*not a response/);
  });
});
