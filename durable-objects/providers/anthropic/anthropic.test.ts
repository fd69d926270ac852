import { describe, expect, it } from "vitest";
import { conformance } from "../test/conformance";
import { createProvider, DEFAULT_MODELS } from "../registry";
import { mockConfig, run, textOf, TOOLS, userSays } from "../test/harness";
import type { NeutralMessage, StreamEvent } from "../types";
import { REASONING_TOKENS } from "../reasoning-effort";
import { DEFAULT_MAX_TOKENS, toAnthropicRequest } from "./build-request";
import { toAnthropicMessages } from "./convert-messages";

conformance("anthropic", {
  credentials: /ANTHROPIC_API_KEY/,
  exactUsage: true,
  argumentsInPieces: true,
  streamErrorAfterText: { marker: "case:stream-error-late", code: "server_error" },
  streamErrorBeforeOutput: { marker: "case:stream-error-early", code: "server_error" },
});

describe("anthropic: specifics", () => {
  it("streams thinking as reasoning and hands over the whole block, signed, as the call ends", async () => {
    const { events } = await run("anthropic", { messages: userSays("case:reasoning") });
    const reasoning = events.flatMap((e) => (e.type === "reasoning_delta" ? [e.text] : []));
    expect(reasoning.join("")).toBe("Let me think about the question carefully.");
    const signed = events.filter((e) => e.type === "signed_thinking");
    expect(signed).toEqual([
      {
        type: "signed_thinking",
        model: DEFAULT_MODELS.anthropic,
        thinking: "Let me think about the question carefully.",
        signature: expect.stringMatching(/.+/),
      },
    ]);
    // Handed over with the completed call, before its usage and finish.
    expect(events.slice(-3).map((e) => e.type)).toEqual(["signed_thinking", "usage", "finish"]);
  });

  it("asks again with the tool offered, not forced, when a thinking Claude refuses a forced call", async () => {
    // aimock forces calls for any model: this fetch refuses them, as the newest Claude models do.
    const choices: unknown[] = [];
    const refusing: typeof fetch = async (input, init) => {
      const body = JSON.parse(String(init?.body)) as { tool_choice?: { type: string } };
      choices.push(body.tool_choice?.type);
      if (body.tool_choice?.type === "tool")
        return Response.json(
          {
            type: "error",
            error: {
              type: "invalid_request_error",
              message: "tool_choice forcing tool use is not supported when thinking is enabled.",
            },
          },
          { status: 400 },
        );
      return fetch(input, init);
    };
    const r = await run(
      "anthropic",
      { messages: userSays("case:one-tool"), tools: TOOLS, toolChoice: { name: "get_weather" } },
      { config: { fetch: refusing } },
    );
    expect(r.events.find((e) => e.type === "error")).toBeUndefined();
    expect(r.events.find((e) => e.type === "tool_call")).toMatchObject({ name: "get_weather" });
    expect(choices).toEqual(["tool", "auto"]);
  });

  it.each([
    ["a reasoning effort", { model: "claude-opus-4-7", reasoningEffort: "high" as const }],
    ["the summary a newer model is asked for", { model: "claude-opus-5-5" }],
  ])("asks again without our thinking when Claude refuses %s", async (_, asked) => {
    // aimock takes any thinking request: this fetch refuses one, as a model might.
    const thinking: unknown[] = [];
    const refusing: typeof fetch = async (input, init) => {
      const body = JSON.parse(String(init?.body)) as { thinking?: { type: string } };
      thinking.push(body.thinking?.type);
      if (body.thinking)
        return Response.json(
          {
            type: "error",
            error: { type: "invalid_request_error", message: "thinking.display: not supported" },
          },
          { status: 400 },
        );
      return fetch(input, init);
    };
    const r = await run(
      "anthropic",
      { ...asked, messages: userSays("case:text") },
      { config: { fetch: refusing } },
    );
    expect(r.events.find((e) => e.type === "error")).toBeUndefined();
    expect(r.events.at(-1)).toEqual({ type: "finish", reason: "stop" });
    expect(thinking).toEqual(["adaptive", undefined]);
  });

  it("says which setting is missing without calling Anthropic when no key is configured", async () => {
    const r = await run(
      "anthropic",
      { messages: userSays("case:text") },
      { config: { apiKey: "" } },
    );
    expect(r.events).toEqual([
      {
        type: "error",
        error: expect.objectContaining({
          code: "authentication",
          message: expect.stringMatching(/ANTHROPIC_API_KEY/),
        }),
      },
    ]);
    expect(await r.requests()).toHaveLength(0);
  });
});

describe("anthropic: history conversion", () => {
  const text = (t: string) => ({ type: "text" as const, text: t });

  it("names an image over 8000 pixels a side instead of sending it (Anthropic refuses the request)", () => {
    // A PNG's signature and header: a full-page screenshot 1280 wide and 12,000 tall.
    const png = (width: number, height: number) => {
      const b = new Uint8Array(33);
      b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
      new DataView(b.buffer).setUint32(16, width);
      new DataView(b.buffer).setUint32(20, height);
      return btoa(String.fromCharCode(...b));
    };
    const tall = png(1280, 12_000);
    const wide = png(1920, 1080);
    const out = toAnthropicMessages(
      [
        {
          role: "user",
          content: [
            { type: "image", mediaType: "image/png", data: tall },
            { type: "image", mediaType: "image/png", data: wide },
          ],
        },
        {
          role: "assistant",
          content: [{ type: "tool_call", id: "c1", name: "screenshot", arguments: {} }],
        },
        {
          role: "tool",
          content: [
            {
              type: "tool_result",
              callId: "c1",
              name: "screenshot",
              content: [{ type: "image", mediaType: "image/png", data: tall }],
            },
          ],
        },
      ],
      "claude-haiku-4-5",
    );
    const sent = JSON.stringify(out);
    expect(sent).not.toContain(tall);
    expect(sent).toContain(wide);
    expect(out[0]?.content[0]).toEqual({
      type: "text",
      text: "[an image of 1280×12000 pixels was left out: Claude takes at most 8000 pixels a side]",
    });
    expect(sent.match(/left out: Claude takes at most 8000 pixels/g)).toHaveLength(2);
  });

  it("merges same-role turns, starts with the user and puts tool results first in their turn", () => {
    const history: NeutralMessage[] = [
      { role: "assistant", content: [text("Hello, how can I help?")] },
      { role: "user", content: [text("Weather?")] },
      { role: "user", content: [text("In Paris.")] },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "unsigned thoughts are not replayed" },
          { type: "tool_call", id: "call.1/x", name: "get_weather", arguments: { city: "Paris" } },
        ],
      },
      {
        role: "user",
        content: [
          text("also, hurry"),
          {
            type: "tool_result",
            callId: "call.1/x",
            name: "get_weather",
            isError: true,
            content: [text("upstream timeout")],
          },
        ],
      },
    ];
    expect(toAnthropicMessages(history, "claude-haiku-4-5")).toEqual([
      { role: "user", content: [text("(conversation continues)")] },
      { role: "assistant", content: [text("Hello, how can I help?")] },
      { role: "user", content: [text("Weather?"), text("In Paris.")] },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "call_1_x", name: "get_weather", input: { city: "Paris" } },
        ],
      },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "call_1_x",
            is_error: true,
            content: [text("upstream timeout")],
          },
          text("also, hurry"),
        ],
      },
    ]);
  });

  it("gives a call without a result an error result, and keeps a stray result as text", () => {
    const history: NeutralMessage[] = [
      { role: "user", content: [text("go")] },
      {
        role: "assistant",
        content: [{ type: "tool_call", id: "a", name: "slow_tool", arguments: {} }],
      },
      { role: "user", content: [text("what happened?")] },
      {
        role: "tool",
        content: [{ type: "tool_result", callId: "zzz", name: "old_tool", content: [text("42")] }],
      },
    ];
    const out = toAnthropicMessages(history, "claude-haiku-4-5");
    expect(out).toHaveLength(3);
    expect(out[2]).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "a",
          is_error: true,
          content: [text(expect.stringMatching(/interrupted/) as unknown as string)],
        },
        text("what happened?"),
        text("[Result of an earlier old_tool call]\n42"),
      ],
    });
  });

  it("replays signed thinking, drops unsupported images to a note, and skips empty text", () => {
    const out = toAnthropicMessages(
      [
        {
          role: "user",
          content: [text("  "), { type: "image", mediaType: "image/tiff", data: "AAAA" }],
        },
        {
          role: "assistant",
          content: [
            { type: "signed_thinking", model: "claude-x", thinking: "I think", signature: "sig" },
            { type: "signed_thinking", model: "claude-x", redacted: "sealed" },
            text("Answer"),
          ],
        },
      ],
      "claude-x",
    );
    expect(out).toEqual([
      {
        role: "user",
        content: [text("[an image of type image/tiff was left out: not supported]")],
      },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "I think", signature: "sig" },
          { type: "redacted_thinking", data: "sealed" },
          text("Answer"),
        ],
      },
    ]);
  });

  it("sends thinking only to the model that wrote it", () => {
    const history: NeutralMessage[] = [
      { role: "user", content: [text("Look it up")] },
      {
        role: "assistant",
        content: [
          { type: "signed_thinking", model: "claude-x", thinking: "Hmm", signature: "sig" },
          { type: "tool_call", id: "c1", name: "lookup", arguments: {} },
        ],
      },
    ];
    const out = toAnthropicMessages(history, "claude-y");
    expect(out[1]?.content).toEqual([{ type: "tool_use", id: "c1", name: "lookup", input: {} }]);
  });
});

describe("anthropic: request", () => {
  const base = { model: "claude-haiku-4-5", messages: userSays("hi") };

  it("asks for prompt caching and sends no sampling parameters, which API 2026-10-21 refuses", () => {
    const body = toAnthropicRequest({
      ...base,
      system: "sys",
      temperature: 0.3,
      providerOptions: { top_k: 5, metadata: { user_id: "u1" } },
    });
    expect(body).toMatchObject({
      system: "sys",
      cache_control: { type: "ephemeral" },
      metadata: { user_id: "u1" },
    });
    expect(Object.keys(body)).not.toContain("temperature");
    expect(Object.keys(body)).not.toContain("top_k");
  });

  it("keeps thinking within Anthropic's rules: budget under max_tokens, off when a tool is forced", () => {
    const thinking = { type: "enabled" as const, budget_tokens: 4000 };
    const retried = toAnthropicRequest({ ...base, maxTokens: 2000, providerOptions: { thinking } });
    expect(retried).toMatchObject({
      max_tokens: 2000,
      thinking: { type: "enabled", budget_tokens: 1999 },
    });
    const tooSmall = toAnthropicRequest({
      ...base,
      maxTokens: 1000,
      providerOptions: { thinking },
    });
    expect(tooSmall.thinking).toBeUndefined();
    const forced = toAnthropicRequest({
      ...base,
      tools: TOOLS,
      toolChoice: { name: "get_time" },
      providerOptions: { thinking },
    });
    expect(forced.thinking).toBeUndefined();
    expect(forced.tool_choice).toEqual({ type: "tool", name: "get_time" });
  });

  it("asks Claude 4.6 and later to think adaptively at the conversation's effort, with room to answer", () => {
    for (const model of ["claude-sonnet-4-6", "claude-opus-5", "claude-mythos-preview"]) {
      const body = toAnthropicRequest({ ...base, model, maxTokens: 4000, reasoningEffort: "low" });
      expect(body).toMatchObject({
        thinking: { type: "adaptive", display: "summarized" },
        output_config: { effort: "low" },
        max_tokens: 4000 + REASONING_TOKENS.low,
      });
    }
    // Adaptive thinking goes with a forced call too.
    const forced = toAnthropicRequest({
      ...base,
      model: "claude-opus-4-7",
      tools: TOOLS,
      toolChoice: { name: "get_time" },
      reasoningEffort: "high",
    });
    expect(forced.thinking).toEqual({ type: "adaptive", display: "summarized" });
  });

  it("asks Claude 5 and later, which think anyway, to show a summary of it, with room for it", () => {
    const body = toAnthropicRequest({ ...base, model: "claude-opus-5-5", maxTokens: 4000 });
    expect(body).toMatchObject({
      thinking: { type: "adaptive", display: "summarized" },
      max_tokens: 4000 + REASONING_TOKENS.medium,
    });
    expect(body).not.toHaveProperty("output_config");
    // Claude 4.6 does not think unless asked: it is asked nothing.
    expect(toAnthropicRequest({ ...base, model: "claude-sonnet-4-6" })).not.toHaveProperty(
      "thinking",
    );
    // The request asked again after a refusal carries none of our thinking.
    const plain = toAnthropicRequest(
      { ...base, model: "claude-opus-5-5", reasoningEffort: "high" },
      { ownThinking: false },
    );
    expect(plain).not.toHaveProperty("thinking");
    expect(plain).not.toHaveProperty("output_config");
    expect(plain.max_tokens).toBe(DEFAULT_MAX_TOKENS);
  });

  it("gives Claude 3.7 to 4.5 a thinking budget, and older models nothing", () => {
    const budget = toAnthropicRequest({
      ...base,
      model: "claude-sonnet-4-5-20250929",
      maxTokens: 4000,
      reasoningEffort: "medium",
    });
    expect(budget).toMatchObject({
      thinking: { type: "enabled", budget_tokens: REASONING_TOKENS.medium },
      max_tokens: 4000 + REASONING_TOKENS.medium,
    });
    expect(budget).not.toHaveProperty("output_config");
    expect(
      toAnthropicRequest({ ...base, model: "claude-3-7-sonnet-20250219", reasoningEffort: "low" })
        .thinking,
    ).toMatchObject({ type: "enabled" });
    const old = toAnthropicRequest({ ...base, model: "claude-3-5-haiku", reasoningEffort: "high" });
    expect(old).not.toHaveProperty("thinking");
    expect(old.max_tokens).toBe(DEFAULT_MAX_TOKENS);
    // A budget cannot go with a forced call (the formatter's step): that step does without.
    const forced = toAnthropicRequest({
      ...base,
      tools: TOOLS,
      toolChoice: { name: "get_time" },
      reasoningEffort: "high",
    });
    expect(forced).not.toHaveProperty("thinking");
    // The operator's own thinking option is sent as set.
    const asked = { type: "enabled" as const, budget_tokens: 1500 };
    expect(
      toAnthropicRequest({
        ...base,
        reasoningEffort: "high",
        providerOptions: { thinking: asked },
      }),
    ).toMatchObject({ thinking: asked, max_tokens: DEFAULT_MAX_TOKENS });
  });
});

describe("anthropic: usage of a call cut short", () => {
  const usageOf = (events: StreamEvent[]) => events.filter((e) => e.type === "usage");

  it("reports the input counted at message_start when the user cancels mid-stream", async () => {
    const provider = createProvider("anthropic", mockConfig("anthropic"));
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    const stream = provider.stream({
      model: DEFAULT_MODELS.anthropic,
      messages: userSays("case:cut-metered"),
      signal: controller.signal,
    });
    for await (const event of stream) {
      events.push(event);
      if (event.type === "text_delta") controller.abort();
    }
    expect(events.at(-1)).toMatchObject({ type: "error", error: { code: "aborted" } });
    // Exactly one usage, just before the error: the figures message_start gave, marked cut.
    expect(usageOf(events)).toHaveLength(1);
    expect(events.at(-2)).toEqual({
      type: "usage",
      inputTokens: 100,
      outputTokens: 10,
      cachedTokens: 0,
      cut: true,
    });
  });

  it("reports them when the connection drops after output, once, however it is retried", async () => {
    const { events } = await run(
      "anthropic",
      { messages: userSays("case:cut-metered") },
      { retries: true },
    );
    expect(events.at(-1)).toMatchObject({ type: "error", error: { code: "network" } });
    expect(usageOf(events)).toEqual([
      { type: "usage", inputTokens: 100, outputTokens: 10, cachedTokens: 0, cut: true },
    ]);
  });
});

describe("anthropic: how an answer stopped", () => {
  /** Claude streaming `text` from a prompt of `inputTokens`, then stopping with `delta`. */
  const claudeStream =
    (text: string, inputTokens: number, delta: Record<string, unknown>): typeof fetch =>
    async () => {
      const events = [
        {
          type: "message_start",
          message: {
            id: "msg_1",
            type: "message",
            role: "assistant",
            model: "claude-haiku-4-5",
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: inputTokens, output_tokens: 1 },
          },
        },
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } },
        { type: "content_block_stop", index: 0 },
        {
          type: "message_delta",
          delta: { stop_sequence: null, ...delta },
          usage: { output_tokens: 3 },
        },
        { type: "message_stop" },
      ];
      return new Response(
        events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(""),
        { headers: { "content-type": "text/event-stream" } },
      );
    };

  it("ends a streaming refusal as content_filter with Anthropic's explanation, the text so far kept", async () => {
    const recorded = claudeStream("Hello..", 12, {
      stop_reason: "refusal",
      stop_details: {
        type: "refusal",
        category: "cyber",
        explanation: "This request was declined because it could enable cyber harm.",
      },
    });
    const r = await run("anthropic", { messages: userSays("hi") }, { config: { fetch: recorded } });
    expect(textOf(r.events)).toBe("Hello..");
    expect(r.events.at(-1)).toEqual({
      type: "finish",
      reason: "content_filter",
      detail: "This request was declined because it could enable cyber harm.",
    });
  });

  it("says a stop at the full context window is that, not max tokens", async () => {
    const recorded = claudeStream("As I s", 199_000, {
      stop_reason: "model_context_window_exceeded",
    });
    const r = await run("anthropic", { messages: userSays("hi") }, { config: { fetch: recorded } });
    expect(r.events.at(-1)).toEqual({
      type: "finish",
      reason: "length",
      detail: expect.stringMatching(/context window/),
    });
  });
});
