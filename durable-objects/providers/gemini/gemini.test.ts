import { ApiError } from "@google/genai";
import { describe, expect, it } from "vitest";
import { conformance } from "../test/conformance";
import { callsOf, errorOf, recordingFetch, run, textOf, TOOLS, userSays } from "../test/harness";
import { REASONING_TOKENS } from "../reasoning-effort";
import type { NeutralMessage, ReasoningEffort } from "../types";
import { SKIP_SIGNATURE } from "./convert-messages";
import { toGeminiSchema } from "./convert-schema";
import { mapGeminiError } from "./map-error";
import { mapGeminiFinish } from "./map-finish-reason";
import { readChunk } from "./read-chunk";

conformance("gemini", {
  credentials: /GEMINI_API_KEY/,
  exactUsage: true,
  // Gemini sends each function call whole.
  argumentsInPieces: false,
  toolResultAsRecorded: (text) => JSON.stringify({ output: text }),
  // No in-stream error cases: aimock's error frame on this route carries no `code`, and
  // @google/genai only raises an error frame that has one; aimock's frame is skipped and the
  // torn connection after it is what the adapter sees (the dropped-connection cases cover that).
  // An error before the first frame goes out as HTTP 500 (the 500 case covers that).
});

type Content = { role: string; parts: Array<Record<string, unknown>> };
const contentsOf = (body: Record<string, unknown> | undefined) =>
  (body?.contents ?? []) as Content[];

describe("gemini: specifics", () => {
  it("says which setting is missing without calling Gemini when no key is configured", async () => {
    const r = await run("gemini", { messages: userSays("case:text") }, { config: { apiKey: "" } });
    expect(r.events).toEqual([
      {
        type: "error",
        error: expect.objectContaining({
          code: "authentication",
          retryable: false,
          message: expect.stringMatching(/GEMINI_API_KEY/),
        }),
      },
    ]);
    expect(await r.requests()).toHaveLength(0);
  });

  it("treats the HTTP 400 Gemini answers for an invalid key as an authentication error, not retried", async () => {
    const r = await run("gemini", { messages: userSays("case:gemini-bad-key") }, { retries: true });
    expect(errorOf(r.events)).toMatchObject({
      code: "authentication",
      retryable: false,
      status: 400,
      message: expect.stringMatching(/GEMINI_API_KEY/),
    });
    expect(await r.requests()).toHaveLength(1);
  });

  it("sends tool results as functionResponse parts of the user turn after the calls", async () => {
    const wire = recordingFetch();
    const r = await run(
      "gemini",
      {
        tools: TOOLS,
        messages: [
          ...userSays("case:tool-result What is the weather in Paris and the time there?"),
          {
            role: "assistant",
            content: [
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
                isError: true,
                content: [{ type: "text", text: "clock unavailable" }],
              },
              {
                type: "tool_result",
                callId: "call_1",
                name: "get_weather",
                content: [
                  { type: "text", text: "21C and sunny" },
                  { type: "image", mediaType: "image/png", data: "iVBO" },
                ],
              },
            ],
          },
        ],
      },
      { config: { fetch: wire.fetch } },
    );
    expect(textOf(r.events)).toBe("It is 21 degrees in Paris.");
    const contents = contentsOf(wire.bodies[0]);
    expect(contents.map((c) => c.role)).toEqual(["user", "model", "user"]);
    expect(contents[2]?.parts).toEqual([
      {
        functionResponse: {
          id: "call_2",
          name: "get_time",
          response: { error: "clock unavailable" },
        },
      },
      {
        functionResponse: {
          id: "call_1",
          name: "get_weather",
          response: { output: "21C and sunny" },
        },
      },
      { inlineData: { mimeType: "image/png", data: "iVBO" } },
    ]);
  });

  it("sends no image of a type Gemini refuses (GIF): the model is told it was left out", async () => {
    // Gemini takes PNG, JPEG, WebP, HEIC and HEIF only; a GIF in the history (an attachment, or a
    // tool's image) would fail every later request of the conversation with a 400.
    const wire = recordingFetch();
    const r = await run(
      "gemini",
      {
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "case:text what is in these?" },
              { type: "image", mediaType: "image/gif", data: "R0lGODlh" },
              { type: "image", mediaType: "image/webp", data: "UklGR" },
            ],
          },
        ],
      },
      { config: { fetch: wire.fetch } },
    );
    expect(errorOf(r.events)).toBeUndefined();
    const parts = contentsOf(wire.bodies[0])[0]?.parts ?? [];
    expect(parts.filter((p) => p.inlineData)).toEqual([
      { inlineData: { mimeType: "image/webp", data: "UklGR" } },
    ]);
    expect(JSON.stringify(parts)).toMatch(/image\/gif was left out/);
  });

  it("gives every call of a Gemini 3 history a thought signature: its own, or Google's placeholder", async () => {
    const history: NeutralMessage[] = [
      ...userSays("case:tool-result weather in Paris, then Lyon?"),
      {
        role: "assistant",
        content: [
          {
            type: "tool_call",
            id: "a",
            name: "get_weather",
            arguments: { city: "Paris" },
            signature: "c2lnLWE=",
          },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool_result",
            callId: "a",
            name: "get_weather",
            content: [{ type: "text", text: "19C" }],
          },
        ],
      },
      // Written while the conversation used another provider: no signature.
      {
        role: "assistant",
        content: [{ type: "tool_call", id: "b", name: "get_weather", arguments: { city: "Lyon" } }],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool_result",
            callId: "b",
            name: "get_weather",
            content: [{ type: "text", text: "21C" }],
          },
        ],
      },
    ];
    const signaturesSent = async (model: string) => {
      const wire = recordingFetch();
      const r = await run(
        "gemini",
        { model, tools: TOOLS, messages: history },
        { config: { fetch: wire.fetch } },
      );
      expect(textOf(r.events)).toBe("It is 21 degrees in Paris.");
      return contentsOf(wire.bodies[0])
        .filter((c) => c.role === "model")
        .map((c) => c.parts[0]?.thoughtSignature);
    };
    expect(await signaturesSent("gemini-3.5-flash")).toEqual(["c2lnLWE=", SKIP_SIGNATURE]);
    // Gemini 2.5 does not check signatures; it gets back only the ones it gave.
    expect(await signaturesSent("gemini-2.5-flash")).toEqual(["c2lnLWE=", undefined]);
  });

  it("asks thinking models for their thought summaries, and no others", async () => {
    const thinkingConfig = async (model: string, providerOptions?: Record<string, unknown>) => {
      const wire = recordingFetch();
      await run(
        "gemini",
        {
          model,
          messages: userSays("case:reasoning"),
          ...(providerOptions && { providerOptions }),
        },
        { config: { fetch: wire.fetch } },
      );
      return (wire.bodies[0]?.generationConfig as Record<string, unknown> | undefined)
        ?.thinkingConfig;
    };
    expect(await thinkingConfig("gemini-2.5-flash")).toEqual({ includeThoughts: true });
    expect(await thinkingConfig("gemini-2.0-flash")).toBeUndefined();
    expect(
      await thinkingConfig("gemini-2.5-pro", { thinkingConfig: { thinkingBudget: 128 } }),
    ).toEqual({
      includeThoughts: true,
      thinkingBudget: 128,
    });
  });

  it("asks for a reasoning effort as a thinking level (Gemini 3) or budget (2.5), on the wire", async () => {
    const thinkingConfig = async (model: string, reasoningEffort: ReasoningEffort) => {
      const wire = recordingFetch();
      await run(
        "gemini",
        { model, messages: userSays("case:reasoning"), reasoningEffort },
        { config: { fetch: wire.fetch } },
      );
      return (wire.bodies[0]?.generationConfig as Record<string, unknown> | undefined)
        ?.thinkingConfig;
    };
    expect(await thinkingConfig("gemini-3.5-flash", "medium")).toEqual({
      includeThoughts: true,
      thinkingLevel: "MEDIUM",
    });
    expect(await thinkingConfig("gemini-2.5-flash", "low")).toEqual({
      includeThoughts: true,
      thinkingBudget: REASONING_TOKENS.low,
    });
    // Gemini 3 Pro knows no medium level: it keeps its default.
    expect(await thinkingConfig("gemini-3.1-pro", "medium")).toEqual({ includeThoughts: true });
    expect(await thinkingConfig("gemini-2.0-flash", "high")).toBeUndefined();
  });

  it("gives a thinking model room for its thoughts on top of the answer's tokens", async () => {
    const maxOutputTokens = async (model: string, reasoningEffort?: ReasoningEffort) => {
      const wire = recordingFetch();
      await run(
        "gemini",
        {
          model,
          messages: userSays("case:reasoning"),
          maxTokens: 500,
          ...(reasoningEffort && { reasoningEffort }),
        },
        { config: { fetch: wire.fetch } },
      );
      return (wire.bodies[0]?.generationConfig as Record<string, unknown>).maxOutputTokens;
    };
    expect(await maxOutputTokens("gemini-3.5-flash")).toBe(500 + REASONING_TOKENS.medium);
    expect(await maxOutputTokens("gemini-2.5-flash", "high")).toBe(500 + REASONING_TOKENS.high);
    expect(await maxOutputTokens("gemini-2.0-flash", "high")).toBe(500);
  });

  it("declares MCP tool schemas in the subset Gemini accepts, and reports what was lost", async () => {
    const mcpSchema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      additionalProperties: false,
      properties: {
        mode: { const: "fast" },
        limit: { type: ["integer", "null"], exclusiveMinimum: 0, enum: [10, 20] },
        tags: { type: "array" },
        filter: { type: "object", properties: {}, required: ["field"] },
        range: {
          allOf: [
            { type: "object", properties: { from: { type: "string" } } },
            { required: ["from"] },
          ],
        },
        when: { type: "string", anyOf: [{ format: "date-time" }, { maxLength: 10 }] },
      },
      required: ["mode", "missing"],
    };
    const tools = [
      { name: "search", description: "Search", inputSchema: mcpSchema },
      {
        name: "ping",
        description: "No arguments",
        inputSchema: { type: "object", properties: {} },
      },
    ];
    const wire = recordingFetch();
    const r = await run(
      "gemini",
      { messages: userSays("case:one-tool"), tools },
      { config: { fetch: wire.fetch } },
    );
    // Gemini would answer 400 to any of the keywords above; aimock accepts anything, so what
    // matters is what was sent.
    expect(callsOf(r.events)).toHaveLength(1);
    const [{ functionDeclarations }] = wire.bodies[0]?.tools as [
      { functionDeclarations: Array<Record<string, unknown>> },
    ];
    expect(functionDeclarations[1]).toEqual({ name: "ping", description: "No arguments" });
    expect(functionDeclarations[0]?.parameters).toEqual({
      type: "OBJECT",
      properties: {
        mode: { type: "STRING", enum: ["fast"], format: "enum" },
        limit: { type: "INTEGER", nullable: true },
        tags: { type: "ARRAY", items: { type: "STRING" } },
        filter: { type: "OBJECT" },
        range: { type: "OBJECT", properties: { from: { type: "STRING" } }, required: ["from"] },
        when: {
          anyOf: [
            { type: "STRING", format: "date-time" },
            { type: "STRING", maxLength: 10 },
          ],
        },
      },
      required: ["mode"],
    });
    expect(toGeminiSchema(mcpSchema).dropped).toEqual([
      "/:additionalProperties",
      "/:required(missing)",
      "/filter:required(field)",
      "/limit:enum",
      "/limit:exclusiveMinimum",
      "/tags:items(any → string)",
    ]);
  });

  it("retries a function call the model could not form instead of ending with an empty answer", async () => {
    const r = await run(
      "gemini",
      { messages: userSays("case:gemini-malformed-call"), tools: TOOLS },
      { retries: true },
    );
    expect(r.events).toEqual([
      {
        type: "error",
        error: expect.objectContaining({
          code: "server_error",
          retryable: true,
          message: expect.stringMatching(/MALFORMED_FUNCTION_CALL/),
        }),
      },
    ]);
    expect(await r.requests()).toHaveLength(3);
  });

  it("reports a stream that ends without a finish reason as a cut connection, not a finished answer", async () => {
    const r = await run("gemini", { messages: userSays("case:no-finish") }, { retries: true });
    expect(textOf(r.events)).toBe("An answer that never says it is finished");
    expect(r.events.some((e) => e.type === "finish")).toBe(false);
    expect(r.events.at(-1)).toMatchObject({
      type: "error",
      error: { code: "network", retryable: true, message: expect.stringMatching(/Gemini/) },
    });
    expect(await r.requests()).toHaveLength(1);
  });

  it("finishes a blocked answer as content_filter", async () => {
    const { events } = await run("gemini", { messages: userSays("case:gemini-safety") });
    expect(events.at(-1)).toEqual({
      type: "finish",
      reason: "content_filter",
      detail: expect.stringMatching(/safety filter/),
    });
  });

  it("gives calls Gemini did not name ids of their own, different in every call", async () => {
    const first = callsOf(
      (await run("gemini", { messages: userSays("case:gemini-no-ids"), tools: TOOLS })).events,
    );
    const second = callsOf(
      (await run("gemini", { messages: userSays("case:gemini-no-ids"), tools: TOOLS })).events,
    );
    expect(first.map((c) => c.arguments)).toEqual([{ city: "Paris" }, { city: "Lyon" }]);
    const ids = [...first, ...second].map((c) => c.id);
    expect(new Set(ids).size).toBe(4);
    for (const id of ids) expect(id).toMatch(/^[a-zA-Z0-9_-]{1,40}$/);
  });

  it("reports options the SDK refuses for the Gemini API as a bad request, without sending or retrying", async () => {
    const r = await run(
      "gemini",
      { messages: userSays("case:text"), providerOptions: { routingConfig: { autoMode: {} } } },
      { retries: true },
    );
    expect(r.events).toEqual([
      {
        type: "error",
        error: expect.objectContaining({
          code: "bad_request",
          retryable: false,
          message: expect.stringMatching(/routingConfig/),
        }),
      },
    ]);
    expect(await r.requests()).toHaveLength(0);
  });
});

describe("gemini: errors as the SDK raises them", () => {
  // aimock cannot send these: Gemini's own error bodies carry details it does not reproduce.
  const body = JSON.stringify({
    error: {
      code: 429,
      message: "Resource has been exhausted (e.g. check quota).",
      status: "RESOURCE_EXHAUSTED",
      details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "37s" }],
    },
  });

  it("waits as long as Gemini's RetryInfo says on a 429", () => {
    const error = mapGeminiError(new ApiError({ status: 429, message: body }), {
      sent: true,
      inStream: false,
    });
    expect(error).toMatchObject({
      code: "rate_limit",
      retryable: true,
      retryAfterMs: 37_000,
      status: 429,
    });
  });

  it("maps an error frame inside the stream by its code, without claiming an HTTP status", () => {
    const frame = new ApiError({ status: 429, message: `got status: RESOURCE_EXHAUSTED. ${body}` });
    const error = mapGeminiError(frame, { sent: true, inStream: true });
    expect(error).toMatchObject({ code: "rate_limit", retryable: true, retryAfterMs: 37_000 });
    expect(error).not.toHaveProperty("status");
    expect(error.message).toMatch(/Resource has been exhausted/);
  });
});

describe("gemini: chunks aimock does not send", () => {
  it("keeps a call's thought signature and counts thinking tokens as output", () => {
    const reading = readChunk({
      candidates: [
        {
          content: {
            role: "model",
            parts: [
              {
                functionCall: { name: "get_time", args: { zone: "CET" } },
                thoughtSignature: "c2ln",
              },
            ],
          },
          finishReason: "STOP" as never,
        },
      ],
      usageMetadata: {
        promptTokenCount: 100,
        cachedContentTokenCount: 60,
        candidatesTokenCount: 10,
        thoughtsTokenCount: 25,
      },
    });
    expect(reading.events).toEqual([
      {
        type: "tool_call",
        id: expect.stringMatching(/^call_/),
        name: "get_time",
        arguments: { zone: "CET" },
        signature: "c2ln",
      },
    ]);
    expect(reading.usage).toEqual({
      type: "usage",
      inputTokens: 100,
      outputTokens: 35,
      cachedTokens: 60,
      reasoningTokens: 25,
    });
    expect(mapGeminiFinish(reading.finishReason!, true)).toEqual({
      type: "finish",
      reason: "tool_calls",
    });
  });

  it("finishes a prompt Gemini blocked before answering as content_filter, saying why", () => {
    const reading = readChunk({ promptFeedback: { blockReason: "PROHIBITED_CONTENT" as never } });
    expect(reading.events).toEqual([]);
    expect(mapGeminiFinish(reading.finishReason!, false, reading.blockReason)).toEqual({
      type: "finish",
      reason: "content_filter",
      detail: "Gemini blocked the request itself (PROHIBITED_CONTENT).",
    });
  });

  it("says which of Gemini's blocks stopped an answer: recitation is not a safety matter", () => {
    expect(mapGeminiFinish("RECITATION", false)).toEqual({
      type: "finish",
      reason: "content_filter",
      detail: expect.stringMatching(/reciting text.*copyrighted/),
    });
    expect(mapGeminiFinish("SAFETY", false)).toMatchObject({ detail: /safety filter/ });
    expect(mapGeminiFinish("STOP", false)).toEqual({ type: "finish", reason: "stop" });
  });
});
