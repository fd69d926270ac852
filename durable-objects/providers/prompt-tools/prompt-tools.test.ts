import { describe, expect, it } from "vitest";
import { callsOf, run, textOf, TOOLS, userSays } from "../test/harness";
import type { ProviderId } from "../types";
import { toolCallingOf } from "./capabilities";
import { withPromptTools } from "./with-prompt-tools";

// A model without native tools, behind Ollama's and OpenAI's wire formats: tools go in the system
// prompt, none in the request, and fenced blocks in the streamed text become tool calls.
describe.each<ProviderId>(["ollama", "openai"])("%s: prompt-based tool calling", (id) => {
  it("finds a block split across chunks; the request carries the tools as prompt, not as tools", async () => {
    const r = await run(
      id,
      { messages: userSays("case:prompt-tools"), tools: TOOLS },
      { wrap: withPromptTools },
    );
    expect(callsOf(r.events)).toMatchObject([
      { name: "get_weather", arguments: { city: "Paris", days: [1, 2] } },
    ]);
    expect(textOf(r.events)).toBe("I will look it up.\n");
    expect(r.events.at(-1)).toEqual({ type: "finish", reason: "tool_calls" });
    const [sent] = await r.requests();
    expect(sent?.body?.tools ?? []).toEqual([]);
    const system = JSON.stringify(sent?.body?.messages?.[0]);
    expect(system).toContain("tool_call");
    expect(system).toContain("get_weather");
  });

  it("repairs a block whose JSON is broken", async () => {
    const r = await run(
      id,
      { messages: userSays("case:prompt-broken"), tools: TOOLS },
      { wrap: withPromptTools },
    );
    expect(callsOf(r.events)).toMatchObject([{ name: "get_time", arguments: { zone: "CET" } }]);
    expect(callsOf(r.events)[0]?.argumentsError).toBeUndefined();
  });

  it("sends earlier calls and results back as text the same way", async () => {
    const r = await run(
      id,
      {
        tools: TOOLS,
        messages: [
          ...userSays("case:text earlier call"),
          {
            role: "assistant",
            content: [
              { type: "tool_call", id: "c1", name: "get_time", arguments: { zone: "CET" } },
            ],
          },
          {
            role: "tool",
            content: [
              {
                type: "tool_result",
                callId: "c1",
                name: "get_time",
                content: [{ type: "text", text: "14:05" }],
              },
            ],
          },
        ],
      },
      { wrap: withPromptTools },
    );
    const [sent] = await r.requests();
    const messages = sent?.body?.messages ?? [];
    expect(messages.some((m) => m.role === "tool")).toBe(false);
    expect(JSON.stringify(messages)).toContain("Result of get_time (ok):\\n14:05");
  });
});

describe("which models use prompt-based tools", () => {
  it("small local models without native tools do, unless the conversation says otherwise", () => {
    expect(toolCallingOf("ollama", "gemma2:2b")).toBe("prompt");
    expect(toolCallingOf("ollama", "llama3.2:latest")).toBe("native");
    expect(toolCallingOf("openai", "gpt-4o-mini")).toBe("native");
    expect(toolCallingOf("ollama", "gemma2:2b", "native")).toBe("native");
    expect(toolCallingOf("openai", "gpt-4o-mini", "prompt")).toBe("prompt");
  });
});

describe("prompt-based tool calling at the token limit", () => {
  it("ends a block cut off at max tokens as `length`, so its call is known to be cut", async () => {
    const cutShort = withPromptTools({
      id: "ollama",
      async *stream() {
        yield {
          type: "text_delta",
          text: '```tool_call\n{"name": "get_weather", "arguments": {"city": "Pa',
        };
        yield { type: "finish", reason: "length" };
      },
    });
    const events = [];
    for await (const e of cutShort.stream({ model: "m", messages: [], tools: TOOLS }))
      events.push(e);
    expect(callsOf(events)).toHaveLength(1);
    expect(events.at(-1)).toEqual({ type: "finish", reason: "length" });
  });
});

describe("prompt-based tool calling and the call's usage", () => {
  it("hands out a block the stream's end completes before the usage, as every provider does", async () => {
    // A provider reports usage, then finish; the block still open at its last text is a call
    // only at the end. The usage must come after it: the loop takes the usage as the call's end.
    const openAtEnd = withPromptTools({
      id: "ollama",
      async *stream() {
        yield {
          type: "text_delta",
          text: '```tool_call\n{"name": "get_weather", "arguments": {"city": "Paris"}}',
        };
        yield { type: "usage", inputTokens: 10, outputTokens: 5 };
        yield { type: "finish", reason: "stop" };
      },
    });
    const events = [];
    for await (const e of openAtEnd.stream({ model: "m", messages: [], tools: TOOLS }))
      events.push(e);
    expect(events.map((e) => e.type)).toEqual(["tool_call", "usage", "finish"]);
  });
});
