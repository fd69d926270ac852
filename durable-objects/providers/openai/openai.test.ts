import { describe, expect, it } from "vitest";
import { conformance } from "../test/conformance";
import { run, TOOLS, userSays } from "../test/harness";
import type { NeutralMessage } from "../types";
import { toOpenAIRequest } from "./build-request";
import { toOpenAIMessages } from "./convert-messages";

conformance("openai", {
  credentials: /OPENAI_API_KEY/,
  exactUsage: true,
  argumentsInPieces: true,
  argumentsAsRawText: true,
  streamErrorAfterText: { marker: "case:stream-error-late", code: "server_error" },
  streamErrorBeforeOutput: { marker: "case:stream-error-early", code: "server_error" },
});

describe("openai: specifics", () => {
  it("says which setting is missing without calling OpenAI when no key is configured", async () => {
    const r = await run("openai", { messages: userSays("case:text") }, { config: { apiKey: "" } });
    expect(r.events).toEqual([
      {
        type: "error",
        error: expect.objectContaining({
          code: "authentication",
          message: expect.stringMatching(/OPENAI_API_KEY/),
        }),
      },
    ]);
    expect(await r.requests()).toHaveLength(0);
  });

  it("names the OpenAI-compatible endpoint, not OpenAI, when another server refuses the key", async () => {
    // aimock is not api.openai.com, so it stands for an OpenAI-compatible endpoint here.
    const r = await run("openai", { messages: userSays("case:401") });
    const error = r.events.find((e) => e.type === "error");
    expect(error).toMatchObject({ error: { code: "authentication" } });
    expect(error?.type === "error" && error.error.message).toMatch(/OpenAI-compatible endpoint/);
  });

  it("sends tool definitions and the named tool choice in OpenAI's shape", async () => {
    const r = await run("openai", {
      messages: userSays("case:one-tool"),
      tools: TOOLS,
      toolChoice: { name: "get_weather" },
    });
    const [sent] = await r.requests();
    expect(sent?.body?.tool_choice).toEqual({
      type: "function",
      function: { name: "get_weather" },
    });
    expect(sent?.body?.tools).toEqual([
      expect.objectContaining({
        type: "function",
        function: expect.objectContaining({ name: "get_weather" }),
      }),
      expect.objectContaining({
        type: "function",
        function: expect.objectContaining({ name: "get_time" }),
      }),
    ]);
  });
});

describe("openai: request for the kind of server", () => {
  const base = { messages: userSays("hi"), temperature: 0.7, maxTokens: 500 };

  it("uses max_completion_tokens and drops temperature for OpenAI's reasoning models", () => {
    const body = toOpenAIRequest({ ...base, model: "o4-mini" }, true);
    expect(body).toMatchObject({ max_completion_tokens: 500, stream: true });
    expect(body).not.toHaveProperty("temperature");
    expect(body).not.toHaveProperty("max_tokens");
  });

  it("keeps temperature for OpenAI's other models", () => {
    const body = toOpenAIRequest({ ...base, model: "gpt-4.1-mini" }, true);
    expect(body).toMatchObject({ max_completion_tokens: 500, temperature: 0.7 });
  });

  it("uses max_tokens for OpenAI-compatible servers, which often know only that", () => {
    const body = toOpenAIRequest({ ...base, model: "o4-mini" }, false);
    expect(body).toMatchObject({ max_tokens: 500, temperature: 0.7 });
    expect(body).not.toHaveProperty("max_completion_tokens");
  });
});

describe("openai: history conversion", () => {
  const text = (t: string) => ({ type: "text" as const, text: t });

  it("answers each call with a tool message and sends images from a tool in a user message", () => {
    const history: NeutralMessage[] = [
      { role: "user", content: [text("chart it")] },
      {
        role: "assistant",
        content: [
          text("Drawing."),
          { type: "tool_call", id: "c1", name: "render_chart", arguments: { kind: "bar" } },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool_result",
            callId: "c1",
            name: "render_chart",
            content: [text("done"), { type: "image", mediaType: "image/png", data: "iVBO" }],
          },
        ],
      },
    ];
    expect(toOpenAIMessages("sys", history)).toEqual([
      { role: "system", content: "sys" },
      { role: "user", content: "chart it" },
      {
        role: "assistant",
        content: "Drawing.",
        tool_calls: [
          {
            id: "c1",
            type: "function",
            function: { name: "render_chart", arguments: '{"kind":"bar"}' },
          },
        ],
      },
      {
        role: "tool",
        tool_call_id: "c1",
        content: "done\n[image image/png, attached below]",
      },
      {
        role: "user",
        content: [{ type: "image_url", image_url: { url: "data:image/png;base64,iVBO" } }],
      },
    ]);
  });

  it("gives a call without a result an error result before the next user message", () => {
    const out = toOpenAIMessages(undefined, [
      { role: "user", content: [text("go")] },
      { role: "assistant", content: [{ type: "tool_call", id: "a", name: "slow", arguments: {} }] },
      { role: "user", content: [text("what happened?")] },
    ]);
    expect(out.map((m) => m.role)).toEqual(["user", "assistant", "tool", "user"]);
    expect(out[2]).toMatchObject({
      tool_call_id: "a",
      content: expect.stringMatching(/interrupted/),
    });
  });
});
