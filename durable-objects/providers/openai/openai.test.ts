import { describe, expect, it } from "vitest";
import { conformance } from "../test/conformance";
import {
  errorOf,
  mockUrl,
  reasoningOf,
  recordingFetch,
  run,
  toolAnsweredWithImage,
  TOOLS,
  textOf,
  userSays,
} from "../test/harness";
import { providerConfigFromEnv } from "../registry";
import type { NeutralMessage } from "../types";
import { REASONING_TOKENS } from "../reasoning-effort";
import { toOpenAIRequest } from "./build-request";
import { toOpenAIMessages } from "./convert-messages";
import { toResponsesInput } from "./responses-input";
import { toResponsesRequest } from "./responses-request";

// aimock's base URL is not api.openai.com, so it stands for an OpenAI-compatible server, which
// gets chat completions; the second run asks it through the Responses API, as OpenAI itself is.
const onBothApis = {
  credentials: /OPENAI_API_KEY/,
  exactUsage: true,
  argumentsInPieces: true,
  argumentsAsRawText: true,
  streamErrorAfterText: { marker: "case:stream-error-late", code: "server_error" },
  streamErrorBeforeOutput: { marker: "case:stream-error-early", code: "server_error" },
} as const;
conformance("openai", { ...onBothApis, label: "openai (chat completions)" });
conformance("openai", {
  ...onBothApis,
  label: "openai (Responses API)",
  config: { openaiApi: "responses" },
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

describe("openai: usage from a compatible server", () => {
  it("asks for the stream's usage, and ends without a usage event when the server sends none", async () => {
    const asked: Array<Record<string, unknown>> = [];
    // A server that ignores stream_options sends no usage chunk: aimock does too when not asked.
    const ignoring: typeof fetch = async (input, init) => {
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      asked.push(body);
      const { stream_options: _ignored, ...rest } = body;
      return fetch(input, { ...init, body: JSON.stringify(rest) });
    };
    const r = await run(
      "openai",
      { messages: userSays("case:text") },
      { config: { fetch: ignoring } },
    );
    expect(asked[0]).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(textOf(r.events)).not.toBe("");
    // What the loop then counts as a call without a usage report (usage-meter.ts).
    expect(r.events.filter((e) => e.type === "usage")).toEqual([]);
    expect(r.events.at(-1)).toEqual({ type: "finish", reason: "stop" });
  });
});

describe("openai: request for the kind of server", () => {
  const base = { messages: userSays("hi"), temperature: 0.7, maxTokens: 500 };

  it("uses max_completion_tokens, with room for the reasoning, and drops temperature for OpenAI's reasoning models", () => {
    for (const model of ["o4-mini", "gpt-5.2", "gpt-6-luna", "gpt-6.1-terra"]) {
      const body = toOpenAIRequest({ ...base, model }, true);
      // Reasoning counts within the tokens: at its default effort, without room, it eats the answer.
      expect(body).toMatchObject({
        max_completion_tokens: 500 + REASONING_TOKENS.medium,
        stream: true,
      });
      expect(body).not.toHaveProperty("temperature");
      expect(body).not.toHaveProperty("max_tokens");
    }
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

  it("sends the reasoning effort, with room for the reasoning, only to OpenAI's reasoning models", () => {
    const effort = { ...base, reasoningEffort: "high" as const };
    expect(toOpenAIRequest({ ...effort, model: "gpt-6-luna" }, true)).toMatchObject({
      reasoning_effort: "high",
      max_completion_tokens: 500 + REASONING_TOKENS.high,
    });
    for (const [model, official] of [
      ["gpt-4.1-mini", true],
      ["gpt-6-luna", false],
    ] as const) {
      const body = toOpenAIRequest({ ...effort, model }, official);
      expect(body).not.toHaveProperty("reasoning_effort");
      expect(body.max_completion_tokens ?? body.max_tokens).toBe(500);
    }
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

describe("openai: which API is asked", () => {
  /** Sends what would go to api.openai.com to aimock instead, keeping each request's path. */
  const toMock = (): { fetch: typeof fetch; paths: string[] } => {
    const paths: string[] = [];
    return {
      paths,
      fetch: async (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        paths.push(url.pathname);
        return fetch(`${mockUrl()}${url.pathname}${url.search}`, init);
      },
    };
  };

  it("asks OpenAI itself through the Responses API, and other servers through chat completions", async () => {
    const official = toMock();
    const r = await run(
      "openai",
      { messages: userSays("case:text") },
      { config: { baseURL: "https://api.openai.com/v1", fetch: official.fetch } },
    );
    expect(textOf(r.events)).toBe("The quick brown fox jumps over the lazy dog.");
    expect(official.paths).toEqual(["/v1/responses"]);

    const compatible = await run("openai", { messages: userSays("case:text") });
    expect((await compatible.requests()).map((q) => q.path)).toEqual(["/v1/chat/completions"]);
  });

  it("follows OPENAI_API over the default, and says what to set when it names no API", async () => {
    const chosen = await run(
      "openai",
      { messages: userSays("case:text") },
      { config: { openaiApi: "responses" } },
    );
    expect((await chosen.requests()).map((q) => q.path)).toEqual(["/v1/responses"]);

    const wrong = await run(
      "openai",
      { messages: userSays("case:text") },
      { config: { openaiApi: "completions" } },
    );
    expect(wrong.events).toEqual([
      {
        type: "error",
        error: expect.objectContaining({
          code: "not_configured",
          message: expect.stringMatching(
            /OPENAI_API is "completions".*responses or chat-completions/,
          ),
        }),
      },
    ]);
    expect(await wrong.requests()).toHaveLength(0);
  });
});

describe("openai: Responses API requests", () => {
  const history: NeutralMessage[] = [
    { role: "user", content: [{ type: "text", text: "case:tool-result weather?" }] },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Checking." },
        { type: "tool_call", id: "call_1", name: "get_weather", arguments: { city: "Paris" } },
      ],
    },
    {
      role: "tool",
      content: [
        {
          type: "tool_result",
          callId: "call_1",
          name: "get_weather",
          content: [{ type: "text", text: "21C and sunny" }],
        },
      ],
    },
  ];

  it("sends instructions, items, flat tools, the named tool choice, and keeps nothing at OpenAI", async () => {
    const wire = recordingFetch();
    await run(
      "openai",
      {
        messages: history,
        tools: TOOLS,
        toolChoice: { name: "get_weather" },
        maxTokens: 300,
      },
      { config: { openaiApi: "responses", fetch: wire.fetch } },
    );
    const [body] = wire.bodies;
    expect(body).toMatchObject({
      instructions: "Be brief.",
      store: false,
      stream: true,
      max_output_tokens: 300, // aimock is not OpenAI itself: no reasoning room
      tool_choice: { type: "function", name: "get_weather" },
      input: [
        { role: "user", content: "case:tool-result weather?" },
        { role: "assistant", content: "Checking." },
        {
          type: "function_call",
          call_id: "call_1",
          name: "get_weather",
          arguments: '{"city":"Paris"}',
        },
        { type: "function_call_output", call_id: "call_1", output: "21C and sunny" },
      ],
    });
    expect(body?.tools).toEqual([
      expect.objectContaining({ type: "function", name: "get_weather", strict: false }),
      expect.objectContaining({ type: "function", name: "get_time", strict: false }),
    ]);
  });

  it("sends a temperature only to the OpenAI models that take one", () => {
    const base = { messages: userSays("hi"), temperature: 0.7 };
    expect(toResponsesRequest({ ...base, model: "gpt-4.1-mini" }, true)).toMatchObject({
      temperature: 0.7,
    });
    for (const model of ["gpt-6.1-terra", "gpt-6-luna", "gpt-5.2", "o4-mini"])
      expect(toResponsesRequest({ ...base, model }, true)).not.toHaveProperty("temperature");
    expect(toResponsesRequest({ ...base, model: "gpt-6-luna" }, false)).toMatchObject({
      temperature: 0.7,
    });
  });

  it("sends the reasoning effort to OpenAI's reasoning models, beside a summary and the operator's", () => {
    const base = { messages: userSays("hi"), maxTokens: 1000, reasoningEffort: "low" as const };
    expect(toResponsesRequest({ ...base, model: "gpt-6-luna" }, true)).toMatchObject({
      reasoning: { effort: "low" },
      max_output_tokens: 1000 + REASONING_TOKENS.low,
    });
    const both = toResponsesRequest(
      { ...base, model: "o4-mini", providerOptions: { reasoning: { generate_summary: "auto" } } },
      true,
      { summary: "concise" },
    );
    expect(both.reasoning).toEqual({ generate_summary: "auto", effort: "low", summary: "concise" });
    const plain = toResponsesRequest({ ...base, model: "gpt-4.1-mini" }, true);
    expect(plain).not.toHaveProperty("reasoning");
    expect(plain.max_output_tokens).toBe(1000);
  });

  it("asks OpenAI's reasoning models, and only them, for their reasoning encrypted", () => {
    const base = { messages: userSays("hi") };
    const include = ["reasoning.encrypted_content"];
    for (const model of ["gpt-6-luna", "gpt-6.1-sol", "o4-mini"])
      expect(toResponsesRequest({ ...base, model }, true)).toMatchObject({ include });
    expect(toResponsesRequest({ ...base, model: "gpt-4.1-mini" }, true)).not.toHaveProperty(
      "include",
    );
    // A compatible server may not know the field.
    expect(toResponsesRequest({ ...base, model: "gpt-6-luna" }, false)).not.toHaveProperty(
      "include",
    );
  });

  it("sends encrypted reasoning back only to the model that wrote it, one item before its calls", () => {
    const step = (model: string): NeutralMessage[] => [
      history[0]!,
      {
        role: "assistant",
        content: [
          { type: "encrypted_reasoning", model, id: "rs_1", data: "sealed" },
          { type: "encrypted_reasoning", model, id: "rs_2", data: "sealed later" },
          ...history[1]!.content,
        ],
      },
      history[2]!,
    ];
    expect(toResponsesInput(step("gpt-6-luna"), "gpt-6-luna").slice(1, 4)).toEqual([
      { type: "reasoning", id: "rs_1", encrypted_content: "sealed", summary: [] },
      { role: "assistant", content: "Checking." },
      expect.objectContaining({ type: "function_call", call_id: "call_1" }),
    ]);
    // Another model (a route's fallback, a changed setting) cannot read it.
    const other = toResponsesInput(step("gpt-6-luna"), "gpt-6.1-sol");
    expect(other.some((item) => "type" in item && item.type === "reasoning")).toBe(false);
    expect(other).toEqual(toResponsesInput(history, "gpt-6.1-sol"));
  });

  it("puts the images a tool returned in its output, and marks a failed call's output", () => {
    const input = toResponsesInput(
      [
        ...history.slice(0, 2),
        {
          role: "tool",
          content: [
            {
              type: "tool_result",
              callId: "call_1",
              name: "get_weather",
              content: [
                { type: "text", text: "a chart" },
                { type: "image", mediaType: "image/png", data: "iVBO" },
              ],
            },
          ],
        },
        {
          role: "assistant",
          content: [{ type: "tool_call", id: "call_2", name: "get_time", arguments: {} }],
        },
        {
          role: "tool",
          content: [
            {
              type: "tool_result",
              callId: "call_2",
              name: "get_time",
              content: [{ type: "text", text: "no such zone" }],
              isError: true,
            },
          ],
        },
      ],
      "gpt-6-luna",
    );
    expect(input.slice(3)).toEqual([
      {
        type: "function_call_output",
        call_id: "call_1",
        output: [
          { type: "input_text", text: "a chart" },
          { type: "input_image", detail: "auto", image_url: "data:image/png;base64,iVBO" },
        ],
      },
      { type: "function_call", call_id: "call_2", name: "get_time", arguments: "{}" },
      { type: "function_call_output", call_id: "call_2", output: "Error: no such zone" },
    ]);
  });
});

describe("openai: what the Responses API reports inside a stream", () => {
  /** A recorded Responses stream, served as OpenAI would: HTTP 200, then these events. */
  const recorded =
    (events: object[]): typeof fetch =>
    async () =>
      new Response(
        events
          .map((e) => `event: ${(e as { type: string }).type}\ndata: ${JSON.stringify(e)}\n\n`)
          .join(""),
        { headers: { "content-type": "text/event-stream" } },
      );
  const delta = (text: string) => ({
    type: "response.output_text.delta",
    item_id: "msg_1",
    output_index: 0,
    content_index: 0,
    delta: text,
    sequence_number: 1,
  });
  const streamOf = async (events: object[]) =>
    (
      await run(
        "openai",
        { messages: userSays("hi"), model: "gpt-6.1-terra" },
        { config: { openaiApi: "responses", fetch: recorded(events) } },
      )
    ).events;

  it("ends an answer the content filter stopped as content_filter", async () => {
    const events = await streamOf([
      delta("Part of an"),
      {
        type: "response.incomplete",
        sequence_number: 2,
        response: {
          id: "resp_1",
          status: "incomplete",
          incomplete_details: { reason: "content_filter" },
          output: [],
          usage: {
            input_tokens: 5,
            output_tokens: 3,
            input_tokens_details: { cached_tokens: 4 },
            output_tokens_details: { reasoning_tokens: 1 },
          },
        },
      },
    ]);
    expect(events.slice(-2)).toEqual([
      { type: "usage", inputTokens: 5, outputTokens: 3, cachedTokens: 4, reasoningTokens: 1 },
      { type: "finish", reason: "content_filter" },
    ]);
  });

  it("shows the model's refusal as its answer, ended as content_filter", async () => {
    const events = await streamOf([
      {
        type: "response.refusal.delta",
        item_id: "msg_1",
        output_index: 0,
        content_index: 0,
        delta: "I can't help ",
        sequence_number: 1,
      },
      {
        type: "response.refusal.delta",
        item_id: "msg_1",
        output_index: 0,
        content_index: 0,
        delta: "with that.",
        sequence_number: 2,
      },
      {
        type: "response.refusal.done",
        item_id: "msg_1",
        output_index: 0,
        content_index: 0,
        refusal: "I can't help with that.",
        sequence_number: 3,
      },
      {
        type: "response.completed",
        sequence_number: 4,
        response: { id: "resp_1", status: "completed", output: [] },
      },
    ]);
    expect(textOf(events)).toBe("I can't help with that.");
    expect(events.at(-1)).toEqual({ type: "finish", reason: "content_filter" });
  });

  it("reports a failed response by its code: a server error may be retried, a refused request not", async () => {
    const failed = (code: string) => [
      delta("Start"),
      {
        type: "response.failed",
        sequence_number: 2,
        response: { id: "resp_1", status: "failed", error: { code, message: `it was ${code}` } },
      },
    ];
    expect((await streamOf(failed("server_error"))).at(-1)).toMatchObject({
      type: "error",
      error: {
        code: "server_error",
        retryable: true,
        message: expect.stringMatching(/it was server_error/),
      },
    });
    expect((await streamOf(failed("invalid_image"))).at(-1)).toMatchObject({
      type: "error",
      error: { code: "bad_request", retryable: false },
    });
    const errorEvent = await streamOf([
      { type: "error", code: "rate_limit_exceeded", message: "slow down", sequence_number: 1 },
    ]);
    expect(errorEvent).toEqual([
      { type: "error", error: expect.objectContaining({ code: "rate_limit", retryable: true }) },
    ]);
  });

  it("gives out a response's encrypted reasoning with its calls, and none from a failed one", async () => {
    const reasoning = {
      type: "response.output_item.done",
      output_index: 0,
      sequence_number: 1,
      item: { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "sealed" },
    };
    const call = {
      type: "function_call",
      id: "fc_1",
      call_id: "call_1",
      name: "get_weather",
      arguments: '{"city":"Paris"}',
    };
    const events = await streamOf([
      reasoning,
      { type: "response.output_item.done", output_index: 1, sequence_number: 2, item: call },
      {
        type: "response.completed",
        sequence_number: 3,
        response: { id: "resp_1", status: "completed", output: [] },
      },
    ]);
    expect(events.map((e) => e.type)).toEqual(["encrypted_reasoning", "tool_call", "finish"]);
    expect(events[0]).toEqual({
      type: "encrypted_reasoning",
      model: "gpt-6.1-terra",
      id: "rs_1",
      data: "sealed",
    });
    // A retry after this failure sends its own reasoning; this attempt's never reaches the loop.
    const failed = await streamOf([
      reasoning,
      {
        type: "response.failed",
        sequence_number: 2,
        response: { id: "resp_1", status: "failed", error: { code: "server_error", message: "x" } },
      },
    ]);
    expect(failed.map((e) => e.type)).toEqual(["error"]);
  });

  /** Answers the first request 400 with `refusal`, any later one with a plain answer. */
  function refusingOnce(refusal: string) {
    const bodies: Array<Record<string, unknown> & { input: Array<{ type?: string }> }> = [];
    const answer = recorded([
      delta("Done."),
      {
        type: "response.completed",
        sequence_number: 2,
        response: { id: "resp_2", status: "completed", output: [] },
      },
    ]);
    const fetch: typeof globalThis.fetch = async (input, init) => {
      bodies.push(JSON.parse(String(init?.body)));
      if (bodies.length > 1) return answer(input, init);
      return Response.json(
        { error: { message: refusal, type: "invalid_request_error", param: null, code: null } },
        { status: 400 },
      );
    };
    return { bodies, fetch };
  }
  const official = "https://api.openai.com/v1"; // OpenAI itself (the harness points at aimock)
  const afterACall: NeutralMessage[] = [
    ...userSays("weather?"),
    {
      role: "assistant",
      content: [
        { type: "encrypted_reasoning", model: "gpt-6.1-terra", id: "rs_1", data: "old" },
        { type: "tool_call", id: "call_1", name: "get_weather", arguments: {} },
      ],
    },
    {
      role: "tool",
      content: [
        {
          type: "tool_result",
          callId: "call_1",
          name: "get_weather",
          content: [{ type: "text", text: "sunny" }],
        },
      ],
    },
  ];

  it("asks again as the plain request when OpenAI refuses encrypted reasoning or a summary", async () => {
    // Reasoning it can no longer open (the key changed to another organisation mid-turn).
    const unreadable = refusingOnce("The encrypted content for item rs_1 could not be verified.");
    const first = await run(
      "openai",
      { model: "gpt-6.1-terra", messages: afterACall },
      { config: { baseURL: official, fetch: unreadable.fetch } },
    );
    expect(textOf(first.events)).toBe("Done.");
    expect(unreadable.bodies.map((b) => b.input.some((i) => i.type === "reasoning"))).toEqual([
      true,
      false,
    ]);
    expect(unreadable.bodies.map((b) => "include" in b)).toEqual([true, false]);

    // A model that will not give its reasoning encrypted, and a summary an unverified
    // organisation may not have: the plain request still answers.
    const summarised = refusingOnce(
      "Your organization must be verified to generate reasoning summaries.",
    );
    const second = await run(
      "openai",
      { model: "gpt-6-luna", messages: userSays("hi") },
      { config: { baseURL: official, openaiReasoningSummary: "auto", fetch: summarised.fetch } },
    );
    expect(textOf(second.events)).toBe("Done.");
    expect(summarised.bodies[0]).toMatchObject({
      include: ["reasoning.encrypted_content"],
      reasoning: { summary: "auto" },
    });
    expect(summarised.bodies[1]).not.toHaveProperty("include");
    expect(summarised.bodies[1]).not.toHaveProperty("reasoning");

    // Any other refusal is the step's error, asked once.
    const other = refusingOnce("Invalid value for 'max_output_tokens'.");
    const third = await run(
      "openai",
      { model: "gpt-6-luna", messages: userSays("hi") },
      { config: { baseURL: official, fetch: other.fetch } },
    );
    expect(third.events.at(-1)).toMatchObject({ type: "error", error: { code: "bad_request" } });
    expect(other.bodies).toHaveLength(1);
  });

  it("shows a summary of the reasoning when OPENAI_REASONING_SUMMARY asks for one", async () => {
    const bodies: Array<Record<string, unknown>> = [];
    const summarised = recorded([
      { type: "response.reasoning_summary_part.added", summary_index: 0, sequence_number: 1 },
      { type: "response.reasoning_summary_text.delta", summary_index: 0, delta: "Weigh it." },
      { type: "response.reasoning_summary_part.added", summary_index: 1, sequence_number: 3 },
      { type: "response.reasoning_summary_text.delta", summary_index: 1, delta: "Then say." },
      delta("Said."),
      {
        type: "response.completed",
        sequence_number: 6,
        response: { id: "resp_1", status: "completed", output: [] },
      },
    ]);
    const env = { OPENAI_API_KEY: "k", OPENAI_REASONING_SUMMARY: "auto" };
    const { events } = await run(
      "openai",
      {
        model: "gpt-6-luna",
        messages: userSays("hi"),
        providerOptions: { reasoning: { effort: "high" } },
      },
      {
        config: {
          ...providerConfigFromEnv(env, "openai"),
          baseURL: "https://api.openai.com/v1", // OpenAI itself (the harness points at aimock)
          fetch: async (input, init) => {
            bodies.push(JSON.parse(String(init?.body)));
            return summarised(input, init);
          },
        },
      },
    );
    expect(bodies[0]).toMatchObject({ reasoning: { effort: "high", summary: "auto" } });
    expect(reasoningOf(events)).toBe("Weigh it.\n\nThen say.");
    expect(textOf(events)).toBe("Said.");

    // Not for a model that does not reason, nor when unset.
    const options = { summary: "auto" as const };
    expect(
      toResponsesRequest({ model: "gpt-4.1-mini", messages: userSays("hi") }, true, options),
    ).not.toHaveProperty("reasoning");
    expect(
      toResponsesRequest({ model: "gpt-6-luna", messages: userSays("hi") }, true),
    ).not.toHaveProperty("reasoning");
  });

  it("says what to set when OPENAI_REASONING_SUMMARY names no summary, and asks nothing", async () => {
    const bodies: unknown[] = [];
    const { events } = await run(
      "openai",
      { messages: userSays("hi") },
      {
        config: {
          openaiReasoningSummary: "verbose",
          fetch: async (_input, init) => {
            bodies.push(init?.body);
            return new Response("", { status: 500 });
          },
        },
      },
    );
    expect(events).toEqual([
      {
        type: "error",
        error: expect.objectContaining({
          code: "not_configured",
          message: expect.stringMatching(
            /OPENAI_REASONING_SUMMARY is "verbose".*auto, concise, detailed/,
          ),
        }),
      },
    ]);
    expect(bodies).toHaveLength(0);
  });

  it("reports a stream that ends without its response as cut off", async () => {
    const events = await streamOf([delta("An answer that")]);
    expect(events.at(-1)).toMatchObject({ type: "error", error: { code: "network" } });
    expect(events.some((e) => e.type === "finish")).toBe(false);
  });
});

describe("openai: a 429 without Retry-After", () => {
  const limited =
    (headers: Record<string, string>): typeof fetch =>
    async () =>
      new Response(JSON.stringify({ error: { message: "Rate limit reached", type: "requests" } }), {
        status: 429,
        headers: { "content-type": "application/json", ...headers },
      });
  const waitFor = async (headers: Record<string, string>) =>
    errorOf(
      (await run("openai", { messages: userSays("hi") }, { config: { fetch: limited(headers) } }))
        .events,
    )?.retryAfterMs;

  it("waits until the limit that ran out resets, as OpenAI's x-ratelimit headers say", async () => {
    const both = { "x-ratelimit-reset-requests": "1.5s", "x-ratelimit-reset-tokens": "6m0s" };
    expect(await waitFor({ ...both, "x-ratelimit-remaining-requests": "0" })).toBe(1500);
    expect(await waitFor({ ...both, "x-ratelimit-remaining-requests": "12" })).toBe(360_000);
    expect(await waitFor({ "x-ratelimit-reset-tokens": "1h2m3s20ms" })).toBe(3_723_020);
    expect(await waitFor({ "x-ratelimit-reset-tokens": "120ms" })).toBe(120);
  });

  it("keeps Retry-After first, and ignores a reset it cannot read", async () => {
    expect(await waitFor({ "retry-after": "3", "x-ratelimit-reset-tokens": "6m0s" })).toBe(3000);
    expect(await waitFor({ "x-ratelimit-reset-tokens": "soon" })).toBeUndefined();
    expect(await waitFor({ "x-ratelimit-reset-tokens": "" })).toBeUndefined();
  });
});

describe("openai: a compatible server's local reasoning model", () => {
  it("shows what it writes between <think> tags as reasoning, not as the answer", async () => {
    const r = await run("openai", { messages: userSays("case:think-tags") });
    expect(textOf(r.events)).toBe("Hello! How can I help?");
    expect(reasoningOf(r.events)).toBe("\nThe user greets me; greet back.\n");
  });
});

describe("openai: chat completions' refusal", () => {
  it("shows the model's refusal as its answer, ended as content_filter", async () => {
    const chunk = (delta: object, finish: string | null = null) => ({
      id: "chatcmpl-1",
      object: "chat.completion.chunk",
      created: 1,
      model: "gpt-4o",
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const body = [
      chunk({ role: "assistant", content: null, refusal: "" }),
      chunk({ refusal: "I can't help " }),
      chunk({ refusal: "with that." }),
      chunk({}, "stop"),
    ]
      .map((c) => `data: ${JSON.stringify(c)}\n\n`)
      .join("");
    const r = await run(
      "openai",
      { messages: userSays("hi"), model: "gpt-4o" },
      {
        config: {
          fetch: async () =>
            new Response(`${body}data: [DONE]\n\n`, {
              headers: { "content-type": "text/event-stream" },
            }),
        },
      },
    );
    expect(textOf(r.events)).toBe("I can't help with that.");
    expect(r.events.at(-1)).toEqual({ type: "finish", reason: "content_filter" });
  });
});

describe("openai: a compatible server's model that cannot see", () => {
  it("is asked again with a tool's image named in text, not failed on the server's 400", async () => {
    // A text-only model behind vLLM refuses any image_url part with a 400.
    const bodies: string[] = [];
    const server: typeof fetch = async (_input, init) => {
      const body = String(init?.body);
      bodies.push(body);
      if (body.includes("image_url"))
        return Response.json(
          {
            error: {
              message: "Qwen/Qwen2.5-7B-Instruct is not a multimodal model",
              type: "BadRequestError",
              code: 400,
            },
          },
          { status: 400 },
        );
      const chunk = (delta: object, finish: string | null = null) =>
        `data: ${JSON.stringify({
          id: "c",
          object: "chat.completion.chunk",
          created: 1,
          model: "qwen",
          choices: [{ index: 0, delta, finish_reason: finish }],
        })}\n\n`;
      return new Response(
        chunk({ role: "assistant", content: "It drew a chart." }) +
          chunk({}, "stop") +
          "data: [DONE]\n\n",
        { headers: { "content-type": "text/event-stream" } },
      );
    };
    const r = await run(
      "openai",
      {
        model: "Qwen/Qwen2.5-7B-Instruct",
        messages: toolAnsweredWithImage(),
      },
      { config: { fetch: server } },
    );
    expect(r.events.find((e) => e.type === "error")).toBeUndefined();
    expect(textOf(r.events)).toBe("It drew a chart.");
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).not.toMatch(/iVBO/);
    expect(bodies[1]).toMatch(/image\/png\) was left out/);
  });
});
