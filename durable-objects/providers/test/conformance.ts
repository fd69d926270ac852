// The behaviour every adapter owes the loop, run against aimock through the provider's official
// SDK (or Ollama's native API). Each provider's test file calls this with what differs.
import { describe, expect, it } from "vitest";
import type { ProviderConfig, ProviderErrorCode, ProviderId } from "../types";
import { callsOf, errorOf, reasoningOf, run as runOn, textOf, TOOLS, userSays } from "./harness";

export interface Expectations {
  /** Names the suite when one provider is run more than once (OpenAI's two APIs). */
  label?: string;
  /** Configuration every call of the suite adds (which OpenAI API to call). */
  config?: Partial<ProviderConfig>;
  /** What the authentication error must name. */
  credentials: RegExp;
  /** aimock reports the fixture's token counts, except on Ollama's wire format (always 0). */
  exactUsage: boolean;
  /** Whether the arguments of one call reach the adapter in several pieces on this wire format. */
  argumentsInPieces: boolean;
  /**
   * Whether aimock sends a fixture's arguments text as-is on this wire format (OpenAI's); on the
   * others it parses them into an object first, so broken JSON cannot be replayed there.
   */
  argumentsAsRawText?: boolean;
  /**
   * Whether aimock can end an answer at the token limit on this wire format (default true; on
   * Ollama's it always sends `done_reason: "stop"`).
   */
  finishAtLength?: boolean;
  /**
   * How aimock's journal shows a tool result whose text was `text` (default: the text itself;
   * Gemini's function responses are objects, which aimock records as JSON).
   */
  toolResultAsRecorded?: (text: string) => string;
  /** A marker whose response fails inside the stream after some text, and the code it maps to. */
  streamErrorAfterText?: { marker: string; code: ProviderErrorCode };
  /** A marker whose response fails inside the stream before any output, and its code. */
  streamErrorBeforeOutput?: { marker: string; code: ProviderErrorCode };
}

export function conformance(id: ProviderId, expected: Expectations) {
  const name = expected.label ?? id;
  const run = (request: Parameters<typeof runOn>[1], opts: Parameters<typeof runOn>[2] = {}) =>
    runOn(id, request, { ...opts, config: { ...expected.config, ...opts.config } });
  describe(`${name}: streaming`, () => {
    it("streams text in several deltas, then usage, then a stop", async () => {
      const { events } = await run({ messages: userSays("case:text"), tools: TOOLS });
      expect(events.filter((e) => e.type === "text_delta").length).toBeGreaterThan(1);
      expect(textOf(events)).toBe("The quick brown fox jumps over the lazy dog.");
      expect(events.at(0)?.type).toBe("text_delta");
      expect(events.slice(-2).map((e) => e.type)).toEqual(["usage", "finish"]);
      expect(events.at(-1)).toEqual({ type: "finish", reason: "stop" });
      const usage = events.find((e) => e.type === "usage");
      if (expected.exactUsage)
        expect(usage).toMatchObject({ inputTokens: 12, outputTokens: 9, cachedTokens: 0 });
      else expect(usage).toMatchObject({ inputTokens: expect.any(Number) });
    });

    it("streams reasoning apart from the answer", async () => {
      const { events } = await run({ messages: userSays("case:reasoning") });
      expect(reasoningOf(events)).toBe("Let me think about the question carefully.");
      expect(textOf(events)).toBe("Forty-two.");
      const firstText = events.findIndex((e) => e.type === "text_delta");
      expect(events.findIndex((e) => e.type === "reasoning_delta")).toBeLessThan(firstText);
    });

    if (expected.finishAtLength ?? true)
      it("reports a stop at the token limit as `length`", async () => {
        const { events } = await run({ messages: userSays("case:length") });
        expect(events.at(-1)).toEqual({ type: "finish", reason: "length" });
      });
  });

  describe(`${name}: tool calls`, () => {
    if (expected.argumentsInPieces)
      it("ends a call cut off at the token limit as `length`, not as a finished call", async () => {
        const { events } = await run({ messages: userSays("case:tool-length"), tools: TOOLS });
        expect(callsOf(events)).toHaveLength(1);
        expect(events.at(-1)).toEqual({ type: "finish", reason: "length" });
      });

    it(`assembles one call${expected.argumentsInPieces ? " whose arguments arrive in pieces" : ""} into parsed arguments`, async () => {
      const { events } = await run({ messages: userSays("case:one-tool"), tools: TOOLS });
      const calls = callsOf(events);
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({
        name: "get_weather",
        arguments: { city: "Paris", units: "celsius", days: [1, 2, 3] },
      });
      expect(calls[0]?.id).toMatch(/^[a-zA-Z0-9_-]{1,40}$/);
      expect(calls[0]?.argumentsError).toBeUndefined();
      expect(events.at(-1)).toEqual({ type: "finish", reason: "tool_calls" });
    });

    it("returns two calls of one step in order, with distinct ids", async () => {
      const { events } = await run({ messages: userSays("case:two-tools"), tools: TOOLS });
      const calls = callsOf(events);
      expect(calls.map((c) => [c.name, c.arguments])).toEqual([
        ["get_weather", { city: "Paris" }],
        ["get_time", { zone: "Europe/Paris" }],
      ]);
      expect(new Set(calls.map((c) => c.id)).size).toBe(2);
    });

    if (expected.argumentsAsRawText)
      it("repairs almost-JSON arguments (unquoted keys, single quotes, a trailing comma, no closing brace)", async () => {
        const { events } = await run({
          messages: userSays("case:broken-arguments"),
          tools: TOOLS,
        });
        const calls = callsOf(events);
        expect(calls).toHaveLength(1);
        expect(calls[0]).toMatchObject({
          name: "get_weather",
          arguments: { city: "Paris", days: [1, 2, 3] },
        });
        expect(calls[0]?.argumentsError).toBeUndefined();
      });

    it("carries tool results back as the provider's own tool results", async () => {
      const r = await run({
        tools: TOOLS,
        messages: [
          ...userSays("case:tool-result What is the weather in Paris and the time there?"),
          {
            role: "assistant",
            content: [
              { type: "text", text: "Let me check." },
              {
                type: "tool_call",
                id: "call_1",
                name: "get_weather",
                arguments: { city: "Paris" },
              },
              { type: "tool_call", id: "call_2", name: "get_time", arguments: { zone: "CET" } },
            ],
          },
          {
            role: "tool",
            content: [
              {
                type: "tool_result",
                callId: "call_2",
                name: "get_time",
                content: [{ type: "text", text: "14:05" }],
              },
              {
                type: "tool_result",
                callId: "call_1",
                name: "get_weather",
                content: [{ type: "text", text: "21C and sunny" }],
              },
            ],
          },
        ],
      });
      expect(textOf(r.events)).toBe("It is 21 degrees in Paris.");
      // aimock normalises every wire format to chat messages: a real tool result shows up as a
      // `tool` message, a faked one as user text.
      const [sent] = await r.requests();
      const messages = sent?.body?.messages ?? [];
      const recorded = expected.toolResultAsRecorded ?? ((text: string) => text);
      expect(messages.filter((m) => m.role === "tool").map((m) => m.content)).toEqual([
        recorded("14:05"),
        recorded("21C and sunny"),
      ]);
      expect(messages.filter((m) => m.role === "user")).toHaveLength(1);
    });
  });

  describe(`${name}: errors`, () => {
    it("maps 401 to an authentication error that names the setting, and does not retry", async () => {
      const r = await run({ messages: userSays("case:401") }, { retries: true });
      expect(errorOf(r.events)).toMatchObject({
        code: "authentication",
        retryable: false,
        status: 401,
      });
      expect(errorOf(r.events)?.message).toMatch(expected.credentials);
      expect(await r.requests()).toHaveLength(1);
    });

    it("retries 429 after its Retry-After, three tries in all, then reports the rate limit", async () => {
      const r = await run(
        { messages: userSays("case:429"), temperature: 1, maxTokens: 8000 },
        { retries: true },
      );
      expect(r.events).toHaveLength(1);
      expect(errorOf(r.events)).toMatchObject({
        code: "rate_limit",
        retryable: true,
        retryAfterMs: 2000,
        status: 429,
      });
      expect(r.delays).toEqual([2000, 2000]);
      expect(await r.requests()).toHaveLength(3);
    });

    it("retries a 500 with backoff 1000 then 2000 ms", async () => {
      const r = await run({ messages: userSays("case:500") }, { retries: true });
      expect(errorOf(r.events)).toMatchObject({ code: "server_error", retryable: true });
      expect(r.delays).toEqual([1000, 2000]);
      expect(await r.requests()).toHaveLength(3);
    });

    it("maps 503 to overloaded, which is retried", async () => {
      const r = await run({ messages: userSays("case:503") }, { retries: true });
      expect(errorOf(r.events)).toMatchObject({ code: "overloaded", retryable: true });
      expect(await r.requests()).toHaveLength(3);
    });

    it("maps a prompt that does not fit to context_too_long, which is not retried", async () => {
      const r = await run({ messages: userSays("case:too-long") }, { retries: true });
      expect(errorOf(r.events)).toMatchObject({ code: "context_too_long", retryable: false });
      // What the user can do about it, not only what went wrong.
      expect(errorOf(r.events)?.message).toMatch(/new conversation.*larger context window/);
      expect(await r.requests()).toHaveLength(1);
    });

    const late = expected.streamErrorAfterText;
    if (late)
      it("turns an error inside the stream, after text, into an error event without retrying", async () => {
        const r = await run({ messages: userSays(late.marker) }, { retries: true });
        expect(textOf(r.events)).not.toBe("");
        expect(r.events.some((e) => e.type === "finish")).toBe(false);
        expect(r.events.at(-1)).toMatchObject({ type: "error", error: { code: late.code } });
        expect(await r.requests()).toHaveLength(1);
      });

    const early = expected.streamErrorBeforeOutput;
    if (early)
      it("retries an error inside the stream that came before any output", async () => {
        const r = await run({ messages: userSays(early.marker) }, { retries: true });
        expect(r.events).toEqual([
          { type: "error", error: expect.objectContaining({ code: early.code, retryable: true }) },
        ]);
        expect(await r.requests()).toHaveLength(3);
      });

    it("reports a connection dropped after output as a network error, not a finished answer, without retrying", async () => {
      const r = await run({ messages: userSays("case:dropped-late") }, { retries: true });
      expect(textOf(r.events)).not.toBe("");
      expect(r.events.some((e) => e.type === "finish")).toBe(false);
      expect(r.events.at(-1)).toMatchObject({
        type: "error",
        error: { code: "network", retryable: true },
      });
      expect(await r.requests()).toHaveLength(1);
    });

    it("retries a connection dropped before any output", async () => {
      const r = await run({ messages: userSays("case:dropped-early") }, { retries: true });
      expect(r.events).toEqual([
        { type: "error", error: expect.objectContaining({ code: "network", retryable: true }) },
      ]);
      expect(r.delays).toEqual([1000, 2000]);
      expect(await r.requests()).toHaveLength(3);
    });

    it("reports a cancelled call as aborted, without retrying", async () => {
      const controller = new AbortController();
      controller.abort();
      const r = await run(
        { messages: userSays("case:text"), signal: controller.signal },
        { retries: true },
      );
      expect(r.events).toEqual([
        { type: "error", error: expect.objectContaining({ code: "aborted", retryable: false }) },
      ]);
    });
  });
}
