// A model call cut short (cancelled, cut by a stream guard, its connection lost) still costs
// what it used: it is counted once, with its provider's figures where it gave them, and what
// they lack estimated.
import { describe, expect, it } from "vitest";
import type { NewServerEvent } from "../protocol/wire";
import { streamWithRetries } from "../providers/retry";
import type { ModelRequest, StreamEvent } from "../providers/types";
import { runScripted, say, stop } from "./test/scripted-loop";
import { BUILT_IN_PRICES } from "./prices";
import type { LoopDeps } from "./types";

const SENTENCE = "I will check the data again to be sure that nothing was missed. ";
/** A loop the repetition guard cuts: 50 copies of a long sentence, in 9-character chunks. */
const LOOPING = (SENTENCE.repeat(50).match(/.{1,9}/gs) ?? []).map(say);

const usageOf = (events: NewServerEvent[]) =>
  events.filter(
    (e): e is Extract<NewServerEvent, { type: "usage_updated" }> => e.type === "usage_updated",
  );

/**
 * A provider like Anthropic's adapter: it streams `events`, and once its request is aborted it
 * reports the figures it had (input 100 from message_start, output 10) as a cut usage, then
 * the error; without an abort it ends with the full usage.
 */
function anthropicLike(events: StreamEvent[], onDelta?: (n: number) => void) {
  return {
    id: "anthropic" as const,
    async *stream(request: ModelRequest): AsyncIterable<StreamEvent> {
      let n = 0;
      for (const event of events) {
        if (request.signal?.aborted) {
          yield { type: "usage", inputTokens: 100, outputTokens: 10, cachedTokens: 0, cut: true };
          yield {
            type: "error",
            error: { code: "aborted", message: "cancelled", retryable: false },
          };
          return;
        }
        yield event;
        if (event.type === "text_delta") onDelta?.(++n);
      }
      yield { type: "usage", inputTokens: 100, outputTokens: 10 };
      yield stop;
    },
  };
}

async function run(provider: LoopDeps["provider"], signal?: AbortSignal) {
  const recorded: unknown[] = [];
  const { outcome, events } = await runScripted({
    tools: [],
    steps: [],
    deps: { provider, recordUsage: (u) => void recorded.push(u) },
    ...(signal && { input: { signal } }),
  });
  return { outcome, events, recorded, usage: usageOf(events) };
}

describe("usage of a call cut short", () => {
  it("counts a call the repetition guard cut, with the provider's input and the output streamed", async () => {
    const { outcome, usage, recorded } = await run(anthropicLike(LOOPING));
    expect(outcome.status).toBe("complete");
    expect(usage).toHaveLength(1);
    // The provider gave input 100 and a stale output of 10; what streamed (at 4 characters a
    // token) says more came out, so the call is marked estimated.
    const call = usage[0]!;
    expect(call).toMatchObject({ estimated: true, call: { calls: 1, inputTokens: 100 } });
    expect(call.call.outputTokens).toBeGreaterThan(10);
    expect(call.turn).toEqual(call.call);
    expect(recorded).toHaveLength(1);
  });

  it("counts a call the user cancelled mid-stream, estimating what the provider never said", async () => {
    const controller = new AbortController();
    // A provider that reports nothing until its end (OpenAI's Responses API, Ollama).
    const silent: LoopDeps["provider"] = {
      id: "openai",
      async *stream(request) {
        for (const text of ["Let me ", "think about ", "that for a while."]) {
          if (request.signal?.aborted) {
            yield {
              type: "error",
              error: { code: "aborted", message: "cancelled", retryable: false },
            };
            return;
          }
          yield say(text);
          controller.abort();
        }
        yield { type: "usage", inputTokens: 100, outputTokens: 10 };
        yield stop;
      },
    };
    const { outcome, usage, recorded } = await run(silent, controller.signal);
    expect(outcome.status).toBe("cancelled");
    expect(usage).toHaveLength(1);
    // Input from the request's characters, output from "Let me " (7 characters → 2 tokens).
    expect(usage[0]).toMatchObject({
      estimated: true,
      call: { calls: 1, outputTokens: 2, costUsd: null, unpricedCalls: 1 },
    });
    expect(usage[0]!.call.inputTokens).toBeGreaterThan(0);
    expect(recorded).toHaveLength(1);
  });

  it("counts a cancelled call that a route had sent to a fallback as that model's, at its price", async () => {
    const controller = new AbortController();
    // Routed past the conversation's own model "m" (no price) to Haiku, which reports nothing.
    const fallback: LoopDeps["provider"] = {
      id: "anthropic",
      async *stream(request) {
        yield say("Let me ");
        controller.abort();
        if (request.signal?.aborted)
          yield {
            type: "error",
            error: { code: "aborted", message: "cancelled", retryable: false },
          };
      },
    };
    const recorded: unknown[] = [];
    const { events } = await runScripted({
      tools: [],
      steps: [],
      deps: {
        provider: fallback,
        recordUsage: (u) => void recorded.push(u),
        prices: BUILT_IN_PRICES,
        attempting: () => ({ provider: "anthropic", model: "claude-haiku-4-5" }),
      },
      input: { signal: controller.signal },
    });
    const [cut, ...more] = usageOf(events);
    expect(more).toEqual([]);
    expect(cut).toMatchObject({ model: "claude-haiku-4-5", estimated: true });
    expect(cut!.call.costUsd).toBeGreaterThan(0);
    expect(recorded).toEqual([
      expect.objectContaining({ provider: "anthropic", model: "claude-haiku-4-5" }),
    ]);
  });

  it("counts a call the user cancelled while the model thought, before it streamed or reported anything", async () => {
    const controller = new AbortController();
    const notes: unknown[] = [];
    // OpenAI's Responses API with unstreamed reasoning: nothing arrives before the answer.
    const thinking: LoopDeps["provider"] = {
      id: "openai",
      async *stream(request) {
        controller.abort();
        if (request.signal?.aborted) {
          yield {
            type: "error",
            error: { code: "aborted", message: "cancelled", retryable: false },
          };
          return;
        }
        yield say("never");
      },
    };
    const recorded: unknown[] = [];
    const { outcome, events } = await runScripted({
      tools: [],
      steps: [],
      deps: {
        provider: thinking,
        recordUsage: (u) => void recorded.push(u),
        callUnderWay: (c) => void notes.push(c),
      },
      input: { signal: controller.signal },
    });
    expect(outcome.status).toBe("cancelled");
    const usage = usageOf(events);
    expect(usage).toHaveLength(1);
    // The provider read the whole request: its input, estimated; no output yet.
    expect(usage[0]).toMatchObject({
      estimated: true,
      call: { calls: 1, outputTokens: 0, estimatedCalls: 1 },
    });
    expect(usage[0]!.call.inputTokens).toBeGreaterThan(0);
    expect(recorded).toEqual([expect.objectContaining({ estimated: true, outputTokens: 0 })]);
    // Noted while under way, with the input it was counted at, and cleared once counted.
    expect(notes).toEqual([
      { step: 1, model: "m", inputTokens: usage[0]!.call.inputTokens, charsPerToken: 4 },
      null,
    ]);
  });

  it("counts nothing for a call cancelled while it waited to be tried again: no request went out", async () => {
    const controller = new AbortController();
    const overloaded: LoopDeps["provider"] = {
      id: "anthropic",
      async *stream(request) {
        if (request.signal?.aborted) {
          yield {
            type: "error",
            error: { code: "aborted", message: "cancelled", retryable: false },
          };
          return;
        }
        yield { type: "error", error: { code: "overloaded", message: "busy", retryable: true } };
      },
    };
    const { outcome, events } = await runScripted({
      tools: [],
      steps: [],
      deps: {
        provider: overloaded,
        stream: (p, r) =>
          streamWithRetries(p, r, {
            sleep: async () => undefined,
            onRetry: () => controller.abort(),
          }),
      },
      input: { signal: controller.signal },
    });
    expect(outcome.status).toBe("cancelled");
    expect(usageOf(events)).toEqual([]);
  });

  it("counts a cancelled call once with the provider's cut figures, not again as an estimate", async () => {
    const controller = new AbortController();
    const provider = anthropicLike([say("Hello "), say("there, "), say("friend.")], (n) => {
      if (n === 1) controller.abort();
    });
    const { usage, recorded } = await run(provider, controller.signal);
    expect(usage).toHaveLength(1);
    // "Hello " is 2 tokens at most: the provider's 10 stand, and are its own figures.
    expect(usage[0]!.call).toMatchObject({ calls: 1, inputTokens: 100, outputTokens: 10 });
    expect(usage[0]!.estimated).toBeUndefined();
    expect(recorded).toHaveLength(1);
  });

  it("counts a call that completed from its own report only", async () => {
    const { usage } = await run(anthropicLike([say("All "), say("done.")]));
    expect(usage.map((u) => [u.call.inputTokens, u.call.outputTokens, u.estimated])).toEqual([
      [100, 10, undefined],
    ]);
  });

  it("counts a cut attempt and the retry that served the step as two calls", async () => {
    const provider: LoopDeps["provider"] = {
      id: "anthropic",
      async *stream() {
        // Retried by the stream's policy: the first attempt failed after message_start.
        yield { type: "usage", inputTokens: 100, outputTokens: 1, cut: true };
        yield say("Fine.");
        yield { type: "usage", inputTokens: 100, outputTokens: 10 };
        yield stop;
      },
    };
    const { usage } = await run(provider);
    expect(usage.map((u) => [u.call.inputTokens, u.call.outputTokens])).toEqual([
      [100, 1],
      [100, 10],
    ]);
    expect(usage.at(-1)!.turn).toMatchObject({ calls: 2, inputTokens: 200, outputTokens: 11 });
  });
});
