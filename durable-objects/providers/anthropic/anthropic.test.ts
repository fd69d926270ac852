import { describe, expect, it } from "vitest";
import { conformance } from "../test/conformance";
import { run, TOOLS, userSays } from "../test/harness";
import type { NeutralMessage } from "../types";
import { toAnthropicRequest } from "./build-request";
import { toAnthropicMessages } from "./convert-messages";

conformance("anthropic", {
  credentials: /ANTHROPIC_API_KEY/,
  exactUsage: true,
  argumentsInPieces: true,
  streamErrorAfterText: { marker: "case:stream-error-late", code: "server_error" },
  streamErrorBeforeOutput: { marker: "case:stream-error-early", code: "server_error" },
});

describe("anthropic: specifics", () => {
  it("hands over each thinking block's signature so the block can be replayed", async () => {
    const { events } = await run("anthropic", { messages: userSays("case:reasoning") });
    const signed = events.filter((e) => e.type === "reasoning_delta" && e.signature);
    expect(signed).toHaveLength(1);
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
    expect(toAnthropicMessages(history)).toEqual([
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
    const out = toAnthropicMessages(history);
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
    const out = toAnthropicMessages([
      {
        role: "user",
        content: [text("  "), { type: "image", mediaType: "image/tiff", data: "AAAA" }],
      },
      {
        role: "assistant",
        content: [{ type: "reasoning", text: "I think", signature: "sig" }, text("Answer")],
      },
    ]);
    expect(out).toEqual([
      {
        role: "user",
        content: [text("[an image of type image/tiff was left out: not supported]")],
      },
      {
        role: "assistant",
        content: [{ type: "thinking", thinking: "I think", signature: "sig" }, text("Answer")],
      },
    ]);
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
});
