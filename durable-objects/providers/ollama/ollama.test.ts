import { describe, expect, it } from "vitest";
import { conformance } from "../test/conformance";
import {
  callsOf,
  errorOf,
  reasoningOf,
  recordingFetch,
  run,
  textOf,
  toolAnsweredWithImage,
  TOOLS,
  userSays,
} from "../test/harness";
import type { AskedAgain } from "../types";
import { toOllamaMessages } from "./convert-messages";
import { mapOllamaDoneReason } from "./map-done-reason";
import { chunkEvents, parseChunk } from "./read-chunk";

conformance("ollama", {
  credentials: /OLLAMA_ACCESS_CLIENT_ID/,
  // aimock reports 0 tokens on Ollama's wire format.
  exactUsage: false,
  // Ollama sends each tool call whole.
  argumentsInPieces: false,
  // aimock always ends an Ollama stream with done_reason "stop"; see "Ollama's own lines" below.
  finishAtLength: false,
  // An HTTP 200 whose body is an error line, as Ollama sends when the model fails. aimock has no
  // way to put an error line after text on this route (its in-stream error trick needs a frame
  // the route writes; Ollama's chunks never carry the fixture's finish reason).
  streamErrorBeforeOutput: { marker: "case:ollama-error-line", code: "server_error" },
});

const ACCESS = { "CF-Access-Client-Id": "abc.access", "CF-Access-Client-Secret": "s3cret" };

describe("ollama: through a tunnel", () => {
  it("sends the Cloudflare Access service token with the request", async () => {
    const r = await run(
      "ollama",
      { messages: userSays("case:text") },
      { config: { headers: ACCESS } },
    );
    expect(textOf(r.events)).toBe("The quick brown fox jumps over the lazy dog.");
    const [sent] = await r.requests();
    expect(sent?.path).toBe("/api/chat");
    expect(sent?.headers).toMatchObject({
      "cf-access-client-id": "abc.access",
      "cf-access-client-secret": "s3cret",
    });
  });

  it("refuses half a service token, naming the missing half, without calling Ollama", async () => {
    const r = await run(
      "ollama",
      { messages: userSays("case:text") },
      { config: { headers: { "CF-Access-Client-Id": "abc.access" } } },
    );
    expect(r.events).toEqual([
      {
        type: "error",
        error: expect.objectContaining({
          code: "not_configured",
          retryable: false,
          message: expect.stringMatching(/OLLAMA_ACCESS_CLIENT_SECRET/),
        }),
      },
    ]);
    expect(await r.requests()).toHaveLength(0);
  });

  it("says OLLAMA_BASE_URL is missing, without sending anything", async () => {
    const wire = recordingFetch();
    const r = await run(
      "ollama",
      { messages: userSays("case:text") },
      { config: { baseURL: "", fetch: wire.fetch } },
    );
    expect(r.events).toEqual([
      {
        type: "error",
        error: expect.objectContaining({
          code: "not_configured",
          message: expect.stringMatching(/OLLAMA_BASE_URL/),
        }),
      },
    ]);
    expect(wire.bodies).toHaveLength(0);
  });

  it("reports Cloudflare Access's login page as refused credentials naming the token settings, not retried", async () => {
    // aimock cannot play Cloudflare Access: this fetch answers as Access does without a valid
    // token, with a redirect to its login page (or that page, when redirects are followed).
    const seen: RequestInit[] = [];
    const access: typeof fetch = async (_input, init) => {
      seen.push(init ?? {});
      return init?.redirect === "manual"
        ? new Response(null, {
            status: 302,
            headers: { location: "https://team.cloudflareaccess.com/cdn-cgi/access/login/x" },
          })
        : new Response("<html>Sign in</html>", { headers: { "content-type": "text/html" } });
    };
    const r = await run(
      "ollama",
      { messages: userSays("case:text") },
      { retries: true, config: { baseURL: "https://ollama.example.com", fetch: access } },
    );
    expect(r.events).toEqual([
      {
        type: "error",
        error: expect.objectContaining({
          code: "authentication",
          retryable: false,
          message: expect.stringMatching(/OLLAMA_ACCESS_CLIENT_ID and OLLAMA_ACCESS_CLIENT_SECRET/),
        }),
      },
    ]);
    expect(seen).toHaveLength(1);
  });
});

describe("ollama: request", () => {
  it("sends num_ctx, think and keep_alive where /api/chat reads them", async () => {
    const wire = recordingFetch();
    const r = await run(
      "ollama",
      {
        messages: userSays("case:text"),
        temperature: 0.2,
        maxTokens: 500,
        providerOptions: { num_ctx: 32768, think: true, keep_alive: "10m", seed: 7 },
      },
      { config: { fetch: wire.fetch } },
    );
    expect(r.events.at(-1)).toEqual({ type: "finish", reason: "stop" });
    expect(wire.bodies[0]).toMatchObject({
      model: "llama3.2:latest",
      stream: true,
      think: true,
      keep_alive: "10m",
      options: { num_ctx: 32768, seed: 7, temperature: 0.2, num_predict: 500 },
    });
    expect(wire.bodies[0]).not.toHaveProperty("num_ctx");
  });

  it("turns thinking on for a reasoning effort: gpt-oss at that level, other models on", async () => {
    const think = async (model: string) => {
      const wire = recordingFetch();
      await run(
        "ollama",
        { model, messages: userSays("case:text"), reasoningEffort: "low" },
        { config: { fetch: wire.fetch } },
      );
      return wire.bodies[0]?.think;
    };
    expect(await think("gpt-oss:20b")).toBe("low");
    expect(await think("qwen3:8b")).toBe(true);
  });

  it("asks again without thinking when the model cannot think, so the effort costs no answer", async () => {
    // aimock takes `think` for any model: this fetch refuses it, as Ollama does, then lets aimock answer.
    const thinks: unknown[] = [];
    const refusing: typeof fetch = async (input, init) => {
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      thinks.push(body.think);
      if (body.think !== undefined)
        return Response.json({ error: '"llama3.2" does not support thinking' }, { status: 400 });
      return fetch(input, init);
    };
    const refusals: AskedAgain[] = [];
    const r = await run(
      "ollama",
      { model: "llama3.2", messages: userSays("case:text"), reasoningEffort: "high" },
      { config: { fetch: refusing, onAskedAgain: (refusal) => refusals.push(refusal) } },
    );
    expect(errorOf(r.events)).toBeUndefined();
    expect(textOf(r.events)).not.toBe("");
    expect(thinks).toEqual([true, undefined]);
    // The conversation is told, to tell the user that the effort has no effect on this model.
    expect(refusals).toEqual([
      {
        what: "reasoning effort",
        model: "llama3.2",
        message: expect.stringContaining("does not support thinking"),
      },
    ]);
  });

  it("offers only the named tool when one is chosen, and none for `none` (Ollama cannot force a call)", async () => {
    const offered = async (toolChoice: "none" | { name: string }) => {
      const r = await run("ollama", { messages: userSays("case:text"), tools: TOOLS, toolChoice });
      const [sent] = await r.requests();
      return ((sent?.body?.tools ?? []) as Array<{ function: { name: string } }>).map(
        (t) => t.function.name,
      );
    };
    expect(await offered({ name: "get_time" })).toEqual(["get_time"]);
    expect(await offered("none")).toEqual([]);
  });

  it("sends tool results as tool messages naming their tool, with a tool's images after them", () => {
    const out = toOllamaMessages("sys", [
      { role: "user", content: [{ type: "text", text: "chart it" }] },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "A bar chart fits." },
          { type: "tool_call", id: "c1", name: "render_chart", arguments: '{"kind":"bar"}' },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool_result",
            callId: "c1",
            name: "render_chart",
            content: [
              { type: "text", text: "done" },
              { type: "image", mediaType: "image/png", data: "iVBO" },
            ],
          },
        ],
      },
    ]);
    expect(out).toEqual([
      { role: "system", content: "sys" },
      { role: "user", content: "chart it" },
      {
        role: "assistant",
        content: "",
        thinking: "A bar chart fits.",
        tool_calls: [{ function: { name: "render_chart", arguments: { kind: "bar" } } }],
      },
      {
        role: "tool",
        tool_name: "render_chart",
        content: "done\n[image image/png, attached below]",
      },
      { role: "user", content: "", images: ["iVBO"] },
    ]);
  });
});

describe("ollama: answers", () => {
  it("ends with the error Ollama wrote into the stream, in Ollama's words", async () => {
    const r = await run("ollama", { messages: userSays("case:ollama-error-line") });
    expect(r.events).toEqual([
      {
        type: "error",
        error: expect.objectContaining({
          code: "server_error",
          message:
            "Ollama failed while answering. Ollama said: model runner has unexpectedly stopped",
        }),
      },
    ]);
  });

  it("reports a body that is not Ollama's stream as an error, not an empty answer", async () => {
    const r = await run(
      "ollama",
      { messages: userSays("case:text") },
      { config: { headers: { "x-aimock-chaos-malformed": "1" } } },
    );
    expect(r.events).toEqual([
      {
        type: "error",
        error: expect.objectContaining({
          code: "server_error",
          message: expect.stringMatching(/malformed json/),
        }),
      },
    ]);
  });

  it("reports a model Ollama does not have as a bad request, not retried", async () => {
    const r = await run(
      "ollama",
      { messages: userSays("case:ollama-no-model") },
      { retries: true },
    );
    expect(errorOf(r.events)).toMatchObject({
      code: "bad_request",
      retryable: false,
      status: 404,
      message: expect.stringMatching(/not found, try pulling it/),
    });
    expect(await r.requests()).toHaveLength(1);
  });

  it("gives Ollama's calls, which come without ids, ids of their own, different in every call", async () => {
    const first = callsOf(
      (await run("ollama", { messages: userSays("case:two-tools"), tools: TOOLS })).events,
    );
    const second = callsOf(
      (await run("ollama", { messages: userSays("case:two-tools"), tools: TOOLS })).events,
    );
    const ids = [...first, ...second].map((c) => c.id);
    expect(new Set(ids).size).toBe(4);
  });

  it("splits the reasoning a model writes between <think> tags out of its answer", async () => {
    const r = await run("ollama", { messages: userSays("case:think-tags") });
    expect(textOf(r.events)).toBe("Hello! How can I help?");
    expect(reasoningOf(r.events)).toBe("\nThe user greets me; greet back.\n");
  });

  it("reads Ollama's own lines, which aimock does not send: `thinking`, and done_reason `length`", () => {
    const chunk = parseChunk(
      '{"model":"qwen3","message":{"role":"assistant","content":"Hi","thinking":"Greet back."},"done":false}',
    );
    expect(chunk && chunkEvents(chunk)).toEqual([
      { type: "reasoning_delta", text: "Greet back." },
      { type: "text_delta", text: "Hi" },
    ]);
    expect(mapOllamaDoneReason("length", false)).toBe("length");
    expect(mapOllamaDoneReason("length", true)).toBe("tool_calls");
    expect(parseChunk("<html>")).toBeNull();
  });
});

describe("ollama: a model without native tools", () => {
  it("is asked again with the tools in its prompt, and its tool-call block is a call", async () => {
    // aimock's Ollama route takes tools from any model: this fetch plays a model that has none,
    // refusing `tools` with Ollama's 400 and answering a plain request with a tool-call block.
    const bodies: Array<{ tools?: unknown; messages: Array<{ role: string; content: string }> }> =
      [];
    const ollama: typeof fetch = async (_input, init) => {
      const body = JSON.parse(String(init?.body)) as (typeof bodies)[number];
      bodies.push(body);
      if (body.tools)
        return Response.json(
          { error: "registry.ollama.ai/library/llava:13b does not support tools" },
          { status: 400 },
        );
      const block = '```tool_call\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n```';
      const lines = [
        { message: { role: "assistant", content: block }, done: false },
        { message: { role: "assistant", content: "" }, done: true, done_reason: "stop" },
      ];
      return new Response(lines.map((l) => JSON.stringify(l)).join("\n") + "\n", {
        headers: { "content-type": "application/x-ndjson" },
      });
    };
    const refusals: AskedAgain[] = [];
    const r = await run(
      "ollama",
      { model: "llava:13b", messages: userSays("Weather in Oslo?"), tools: TOOLS },
      { config: { fetch: ollama, onAskedAgain: (refusal) => refusals.push(refusal) } },
    );
    expect(refusals).toEqual([
      {
        what: "native tools",
        model: "llava:13b",
        message: expect.stringContaining("does not support tools"),
      },
    ]);
    expect(errorOf(r.events)).toBeUndefined();
    expect(callsOf(r.events)).toEqual([
      expect.objectContaining({ name: "get_weather", arguments: { city: "Oslo" } }),
    ]);
    expect(r.events.at(-1)).toEqual({ type: "finish", reason: "tool_calls" });
    expect(bodies).toHaveLength(2);
    expect(bodies[1]?.tools).toBeUndefined();
    expect(bodies[1]?.messages[0]?.content).toMatch(/get_weather/);
  });
});

describe("ollama: a model that cannot see", () => {
  it("is asked again with a tool's image named in text, not failed on Ollama's 400", async () => {
    // aimock's Ollama route takes images for any model: this fetch plays one that cannot see.
    const bodies: Array<{ messages: Array<{ role: string; content: string; images?: string[] }> }> =
      [];
    const ollama: typeof fetch = async (_input, init) => {
      const body = JSON.parse(String(init?.body)) as (typeof bodies)[number];
      bodies.push(body);
      if (body.messages.some((m) => m.images?.length))
        return Response.json({ error: "this model does not support image input" }, { status: 400 });
      const lines = [
        { message: { role: "assistant", content: "The tool drew a chart." }, done: false },
        { message: { role: "assistant", content: "" }, done: true, done_reason: "stop" },
      ];
      return new Response(lines.map((l) => JSON.stringify(l)).join("\n") + "\n", {
        headers: { "content-type": "application/x-ndjson" },
      });
    };
    const refusals: AskedAgain[] = [];
    const r = await run(
      "ollama",
      {
        model: "llama3.1:8b",
        messages: toolAnsweredWithImage("chart:"),
      },
      { config: { fetch: ollama, onAskedAgain: (refusal) => refusals.push(refusal) } },
    );
    expect(refusals.map((x) => [x.what, x.model])).toEqual([["images", "llama3.1:8b"]]);
    expect(errorOf(r.events)).toBeUndefined();
    expect(textOf(r.events)).toBe("The tool drew a chart.");
    expect(bodies).toHaveLength(2);
    const retried = JSON.stringify(bodies[1]?.messages);
    expect(retried).not.toMatch(/iVBO/);
    expect(retried).toMatch(/image\/png\) was left out: llama3\.1:8b cannot see images/);
  });
});

describe("ollama: the context window", () => {
  it("runs the model with the window the history was fitted to, unless num_ctx is set", async () => {
    // Without num_ctx Ollama keeps its own small default and silently drops the start of a
    // history fitted to a larger window.
    const wire = recordingFetch();
    await run(
      "ollama",
      { messages: userSays("case:text"), contextTokens: 32_768 },
      { config: { fetch: wire.fetch } },
    );
    await run(
      "ollama",
      {
        messages: userSays("case:text"),
        contextTokens: 32_768,
        providerOptions: { num_ctx: 8192 },
      },
      { config: { fetch: wire.fetch } },
    );
    expect(wire.bodies.map((b) => (b.options as { num_ctx?: number }).num_ctx)).toEqual([
      32_768, 8192,
    ]);
  });
});
