import { inject } from "vitest";
import { describe, expect, it } from "vitest";
import { createProvider } from "./registry";
import { streamWithRetries } from "./retry";
import type { ModelRequest, ProviderConfig, ProviderId, StreamEvent } from "./types";

const url = inject("providerMockUrl");
const CONFIGS: Record<ProviderId, ProviderConfig> = {
  anthropic: { apiKey: "test", baseURL: url },
  openai: { apiKey: "test", baseURL: `${url}/v1` },
  gemini: { apiKey: "test", baseURL: url },
  ollama: { baseURL: url },
};
const MODELS: Record<ProviderId, string> = {
  anthropic: "claude-haiku-4-5",
  openai: "gpt-4o-mini",
  gemini: "gemini-2.5-flash",
  ollama: "llama3.2:latest",
};
const TOOLS = [
  {
    name: "get_weather",
    description: "Weather for a city",
    inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
  {
    name: "get_time",
    description: "Time in a zone",
    inputSchema: { type: "object", properties: { zone: { type: "string" } } },
  },
];

async function collect(
  id: ProviderId,
  text: string,
  extra: Partial<ModelRequest> = {},
): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  const provider = createProvider(id, CONFIGS[id]);
  for await (const e of provider.stream({
    model: MODELS[id],
    system: "Be brief.",
    messages: [{ role: "user", content: [{ type: "text", text }] }],
    tools: TOOLS,
    ...extra,
  }))
    events.push(e);
  return events;
}

const textOf = (events: StreamEvent[]) =>
  events.flatMap((e) => (e.type === "text_delta" ? [e.text] : [])).join("");

async function requestsFor(marker: string): Promise<number> {
  const entries = (await (await fetch(`${url}/__aimock/journal?limit=1000`)).json()) as unknown[];
  return entries.filter((e) => JSON.stringify(e).includes(marker)).length;
}

// Anthropic has its own suite (anthropic/anthropic.test.ts); the others move there next.
for (const id of ["gemini", "ollama"] as const) {
  describe(`${id} adapter`, () => {
    it("streams text in several deltas, then usage and a stop", async () => {
      const events = await collect(id, "case:text");
      expect(events.filter((e) => e.type === "text_delta").length).toBeGreaterThan(1);
      expect(textOf(events)).toBe("The quick brown fox jumps over the lazy dog.");
      expect(events.at(-1)).toEqual({ type: "finish", reason: "stop" });
      const usage = events.find((e) => e.type === "usage");
      expect(usage).toMatchObject({
        type: "usage",
        inputTokens: expect.any(Number),
        outputTokens: expect.any(Number),
      });
      // aimock reports the fixture's token counts for every wire format but Ollama's (always 0 there).
      if (id !== "ollama") expect(usage).toMatchObject({ inputTokens: 12, outputTokens: 9 });
    });

    it("assembles a streamed tool call into complete, parsed arguments", async () => {
      const events = await collect(id, "case:one-tool");
      const calls = events.filter((e) => e.type === "tool_call");
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({
        type: "tool_call",
        name: "get_weather",
        arguments: { city: "Paris", units: "celsius", days: [1, 2, 3] },
      });
      expect(events.at(-1)).toEqual({ type: "finish", reason: "tool_calls" });
    });

    it("returns two tool calls from one step", async () => {
      const calls = (await collect(id, "case:two-tools")).filter((e) => e.type === "tool_call");
      expect(calls.map((c) => c.type === "tool_call" && [c.name, c.arguments])).toEqual([
        ["get_weather", { city: "Paris" }],
        ["get_time", { zone: "Europe/Paris" }],
      ]);
    });

    it("carries a tool result back as a proper tool result", async () => {
      const events = await collect(id, "ignored", {
        messages: [
          { role: "user", content: [{ type: "text", text: "case:tool-result weather in Paris?" }] },
          {
            role: "assistant",
            content: [
              {
                type: "tool_call",
                id: "call_1",
                name: "get_weather",
                arguments: { city: "Paris" },
              },
            ],
          },
          {
            role: "tool",
            content: [
              {
                type: "tool_result",
                callId: "call_1",
                name: "get_weather",
                content: [{ type: "text", text: "21C" }],
              },
            ],
          },
        ],
      });
      expect(textOf(events)).toBe("It is 21 degrees in Paris.");
    });

    it("maps 401 to an authentication error naming the setting, without retrying", async () => {
      const marker = `case:401 ${id}`;
      const events: StreamEvent[] = [];
      for await (const e of streamWithRetries(
        createProvider(id, CONFIGS[id]),
        {
          model: MODELS[id],
          messages: [{ role: "user", content: [{ type: "text", text: marker }] }],
        },
        { sleep: async () => undefined },
      ))
        events.push(e);
      const error = events.find((e) => e.type === "error");
      expect(error).toMatchObject({
        error: { code: "authentication", retryable: false, status: 401 },
      });
      if (error?.type === "error" && id !== "ollama")
        expect(error.error.message).toMatch(/_API_KEY/);
      expect(await requestsFor(marker)).toBe(1);
    });

    it("retries 429 with its Retry-After, three tries in all, then reports the rate limit", async () => {
      const marker = `case:429 ${id}`;
      const delays: number[] = [];
      const events: StreamEvent[] = [];
      const provider = createProvider(id, CONFIGS[id]);
      for await (const e of streamWithRetries(
        provider,
        {
          model: MODELS[id],
          temperature: 1,
          maxTokens: 8000,
          messages: [{ role: "user", content: [{ type: "text", text: marker }] }],
        },
        { sleep: async (ms) => void delays.push(ms) },
      ))
        events.push(e);
      expect(events.at(-1)).toMatchObject({
        type: "error",
        error: { code: "rate_limit", retryable: true, retryAfterMs: 2000 },
      });
      expect(delays).toEqual([2000, 2000]);
      expect(await requestsFor(marker)).toBe(3);
    });

    it("retries a 500 with backoff 1000 then 2000 ms", async () => {
      const marker = `case:500 ${id}`;
      const delays: number[] = [];
      const events: StreamEvent[] = [];
      for await (const e of streamWithRetries(
        createProvider(id, CONFIGS[id]),
        {
          model: MODELS[id],
          messages: [{ role: "user", content: [{ type: "text", text: marker }] }],
        },
        { sleep: async (ms) => void delays.push(ms) },
      ))
        events.push(e);
      expect(events.at(-1)).toMatchObject({
        type: "error",
        error: { code: "server_error", retryable: true },
      });
      expect(delays).toEqual([1000, 2000]);
      expect(await requestsFor(marker)).toBe(3);
    });

    it("a connection dropped mid-stream is an error event, not a finished answer, and is not retried after output", async () => {
      const marker = `case:dropped-late ${id}`;
      const events: StreamEvent[] = [];
      for await (const e of streamWithRetries(
        createProvider(id, CONFIGS[id]),
        {
          model: MODELS[id],
          messages: [{ role: "user", content: [{ type: "text", text: marker }] }],
        },
        { sleep: async () => undefined },
      ))
        events.push(e);
      expect(events.some((e) => e.type === "finish")).toBe(false);
      expect(events.at(-1)?.type).toBe("error");
      if (events.some((e) => e.type === "text_delta")) expect(await requestsFor(marker)).toBe(1);
    });
  });
}

describe("reasoning", () => {
  for (const id of ["gemini", "ollama", "openai"] as const) {
    it(`${id} streams reasoning deltas apart from text`, async () => {
      const events = await collect(id, "case:reasoning");
      const reasoning = events
        .flatMap((e) => (e.type === "reasoning_delta" ? [e.text] : []))
        .join("");
      expect(textOf(events)).toBe("Forty-two.");
      expect(reasoning).toBe("Let me think about the question carefully.");
    });
  }
});
