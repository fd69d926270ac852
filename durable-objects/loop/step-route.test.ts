// The fallback rule: when a step moves on to the next model of its route, and when it must not.
import { describe, expect, it } from "vitest";
import { providerError } from "../providers/errors";
import type {
  ModelProvider,
  ModelRequest,
  ProviderErrorCode,
  StreamEvent,
} from "../providers/types";
import {
  isProviderDown,
  mayAnswer,
  newRouteRecord,
  noteUnusableCalls,
  type RouteModel,
  type StepRoute,
  streamRouted,
} from "./step-route";

const ok = (text: string): StreamEvent[] => [
  { type: "text_delta", text },
  { type: "finish", reason: "stop" },
];
const fails = (code: ProviderErrorCode, message = `${code} happened.`): StreamEvent[] => [
  { type: "error", error: providerError(code, message) },
];

/** A provider that plays the given events and records the models it was asked for. */
function scripted(id: ModelProvider["id"], events: StreamEvent[], asked: string[]): ModelProvider {
  return {
    id,
    async *stream(request) {
      asked.push(`${id}:${request.model}`);
      yield* events;
    },
  };
}

async function run(
  models: RouteModel[],
  scripts: Partial<Record<ModelProvider["id"], StreamEvent[]>>,
  firstEventTimeoutMs = 5_000,
) {
  const asked: string[] = [];
  const timeline: string[] = [];
  const providerOf = (m: RouteModel) => {
    const events = scripts[m.provider];
    return events ? scripted(m.provider, events, asked) : null;
  };
  const route: StepRoute = {
    models,
    providerFor: providerOf,
    stream: (p, r) => p.stream(r),
    firstEventTimeoutMs,
    knownDown: new Map(),
    localFirst: false,
    record: newRouteRecord(),
    onFallback: (step, failures, next) =>
      timeline.push(
        `step ${step}: ${failures.map((f) => `${f.provider} failed (${f.reason})`).join(", ")} → ${next.provider}`,
      ),
    onServed: (step, served, failed) =>
      timeline.push(
        `step ${step}: served by ${served.provider}/${served.model} after [${failed.map((f) => f.provider).join(", ")}]`,
      ),
  };
  const request: ModelRequest = { model: models[0]!.model, system: "", messages: [], tools: [] };
  const events: StreamEvent[] = [];
  for await (const e of streamRouted(route, providerOf(models[0]!)!, request, 2)) events.push(e);
  return { events, asked, timeline };
}

const ollama = { provider: "ollama", model: "llama3.2" } as const;
const anthropic = { provider: "anthropic", model: "claude-haiku-4-5" } as const;
const openai = { provider: "openai", model: "gpt-4o-mini" } as const;

describe("the fallback rule", () => {
  it("counts unreachable, timed-out and failing providers as down, not refused or bad requests", () => {
    const down = (code: ProviderErrorCode) => isProviderDown(providerError(code, "x"));
    expect(
      ["network", "server_error", "overloaded"].every((c) => down(c as ProviderErrorCode)),
    ).toBe(true);
    for (const code of ["authentication", "bad_request", "context_too_long", "aborted"] as const)
      expect(down(code)).toBe(false);
  });

  it("moves a step whose provider is down to the next model, asking it for its own model", async () => {
    const { events, asked, timeline } = await run([ollama, anthropic], {
      ollama: fails("network", "The connection to Ollama failed."),
      anthropic: ok("from the fallback"),
    });
    expect(asked).toEqual(["ollama:llama3.2", "anthropic:claude-haiku-4-5"]);
    expect(events).toEqual(ok("from the fallback"));
    expect(timeline).toEqual([
      "step 2: ollama failed (The connection to Ollama failed.) → anthropic",
      "step 2: served by anthropic/claude-haiku-4-5 after [ollama]",
    ]);
  });

  it("does not fall back once the user saw output: the step fails with the error", async () => {
    const cut: StreamEvent[] = [{ type: "text_delta", text: "half" }, ...fails("network")];
    const { events, asked } = await run([ollama, anthropic], { ollama: cut, anthropic: ok("x") });
    expect(asked).toEqual(["ollama:llama3.2"]);
    expect(events).toEqual(cut);
  });

  it("does not fall back on an error every model would give (a refused key)", async () => {
    const { events, asked } = await run([ollama, anthropic], {
      ollama: fails("authentication"),
      anthropic: ok("x"),
    });
    expect(asked).toEqual(["ollama:llama3.2"]);
    expect(events).toEqual(fails("authentication"));
  });

  it("skips an unconfigured fallback and fails with the last error when every model is down", async () => {
    const { events, asked, timeline } = await run([ollama, openai, anthropic], {
      ollama: fails("network", "Ollama is unreachable."),
      anthropic: fails("overloaded", "Anthropic is overloaded."),
    });
    expect(asked).toEqual(["ollama:llama3.2", "anthropic:claude-haiku-4-5"]);
    expect(events).toEqual(fails("overloaded", "Anthropic is overloaded."));
    expect(timeline).toEqual([
      "step 2: ollama failed (Ollama is unreachable.), openai failed (this deployment has no key for it.) → anthropic",
    ]);
  });

  it("falls back from a model that sends nothing in time, and aborts its call", async () => {
    const asked: string[] = [];
    let abortedHanging = false;
    const hanging: ModelProvider = {
      id: "ollama",
      async *stream(request) {
        asked.push(`ollama:${request.model}`);
        await new Promise<void>((resolve) =>
          request.signal?.addEventListener("abort", () => resolve()),
        );
        abortedHanging = true;
        yield* fails("aborted");
      },
    };
    const failedReasons: string[] = [];
    const route: StepRoute = {
      models: [ollama, anthropic],
      providerFor: (m) => scripted(m.provider, ok("in time"), asked),
      stream: (p, r) => p.stream(r),
      firstEventTimeoutMs: 50,
      knownDown: new Map(),
      localFirst: false,
      record: newRouteRecord(),
      onFallback: () => {},
      onServed: (_step, _served, failed) => failedReasons.push(...failed.map((f) => f.reason)),
    };
    const request: ModelRequest = { model: ollama.model, system: "", messages: [], tools: [] };
    const events: StreamEvent[] = [];
    for await (const e of streamRouted(route, hanging, request, 1)) events.push(e);
    expect(events).toEqual(ok("in time"));
    expect(asked).toEqual(["ollama:llama3.2", "anthropic:claude-haiku-4-5"]);
    expect(failedReasons).toEqual(["nothing arrived within 0.05 s."]);
    await Promise.resolve();
    expect(abortedHanging).toBe(true);
  });

  it("goes straight past a model found down earlier in the turn, without a second notice", async () => {
    const asked: string[] = [];
    const timeline: string[] = [];
    const scripts: Partial<Record<ModelProvider["id"], StreamEvent[]>> = {
      ollama: fails("network", "Ollama is unreachable."),
      anthropic: ok("fallback"),
    };
    const providerOf = (m: RouteModel) => scripted(m.provider, scripts[m.provider] ?? [], asked);
    const route: StepRoute = {
      models: [ollama, anthropic],
      providerFor: providerOf,
      stream: (p, r) => p.stream(r),
      firstEventTimeoutMs: 5_000,
      knownDown: new Map(),
      localFirst: false,
      record: newRouteRecord(),
      onFallback: (step) => timeline.push(`step ${step}: fallback notice`),
      onServed: (step, served, failed) =>
        timeline.push(
          `step ${step}: ${served.provider} after ${failed.map((f) => f.reason).join()}`,
        ),
    };
    const request: ModelRequest = { model: ollama.model, system: "", messages: [], tools: [] };
    for (const step of [1, 2])
      for await (const _ of streamRouted(route, providerOf(ollama), request, step));
    expect(asked).toEqual([
      "ollama:llama3.2",
      "anthropic:claude-haiku-4-5",
      "anthropic:claude-haiku-4-5",
    ]);
    expect(timeline).toEqual([
      "step 1: fallback notice",
      "step 1: anthropic after Ollama is unreachable.",
      "step 2: anthropic after down earlier in this turn: Ollama is unreachable.",
    ]);
  });
});

/** A route over scripted providers that runs step after step, as one turn does. */
function turnRoute(models: RouteModel[], localFirst = false) {
  const asked: string[] = [];
  const timeline: string[] = [];
  const providerOf = (m: RouteModel) => scripted(m.provider, ok(`from ${m.provider}`), asked);
  const route: StepRoute = {
    models,
    providerFor: providerOf,
    stream: (p, r) => p.stream(r),
    firstEventTimeoutMs: 5_000,
    knownDown: new Map(),
    localFirst,
    record: newRouteRecord(),
    onFallback: (step, failures, next) =>
      timeline.push(
        `step ${step}: ${failures.map((f) => `${f.provider} (${f.reason})`).join(", ")} → ${next.provider}`,
      ),
    onServed: () => {},
  };
  const step = async (n: number, answering = false) => {
    const request: ModelRequest = {
      model: models[0]!.model,
      system: "",
      messages: [],
      tools: [],
      toolChoice: answering ? { name: "response_formatter" } : "auto",
    };
    for await (const _ of streamRouted(route, providerOf(models[0]!), request, n));
  };
  return { route, asked, timeline, step };
}

describe("a model whose tool calls cannot be used", () => {
  it("is set aside after two steps of them in a row, and the next step says why", async () => {
    const { route, asked, timeline, step } = turnRoute([anthropic, openai]);
    await step(1);
    expect(noteUnusableCalls(route, 1, ["no tool is named lookup"])).toBe(false);
    await step(2);
    expect(noteUnusableCalls(route, 2, ["no tool is named lookup"])).toBe(true);
    await step(3);
    await step(4);
    expect(asked).toEqual([
      "anthropic:claude-haiku-4-5",
      "anthropic:claude-haiku-4-5",
      "openai:gpt-4o-mini",
      "openai:gpt-4o-mini",
    ]);
    // Told once, on the step that first goes past it.
    expect(timeline).toEqual([
      "step 3: anthropic (it sent tool calls that could not be used 2 steps in a row (no tool is named lookup).) → openai",
    ]);
  });

  it("starts counting again after a step whose calls could be used", async () => {
    const { route, asked, step } = turnRoute([anthropic, openai]);
    for (const [n, reasons] of [
      [1, ["invalid arguments for echo: message: required"]],
      [2, []],
      [3, ["invalid arguments for echo: message: required"]],
    ] as const) {
      await step(n);
      expect(noteUnusableCalls(route, n, [...reasons])).toBe(false);
    }
    expect(asked.every((a) => a.startsWith("anthropic"))).toBe(true);
  });

  it("is kept when no other model could take over", async () => {
    const { route, step } = turnRoute([anthropic]);
    await step(1);
    noteUnusableCalls(route, 1, ["bad"]);
    await step(2);
    expect(noteUnusableCalls(route, 2, ["bad"])).toBe(false);
  });
});

describe("local first", () => {
  it("sends tool steps to the local model and the answer to the cloud model", async () => {
    const { route, asked, step } = turnRoute([anthropic, ollama], true);
    await step(1);
    expect(mayAnswer(route, 1)).toBe(false);
    await step(2, true);
    expect(mayAnswer(route, 2)).toBe(true);
    expect(asked).toEqual(["ollama:llama3.2", "anthropic:claude-haiku-4-5"]);
  });

  it("changes nothing without it: the conversation's own model serves every step", async () => {
    const { route, asked, step } = turnRoute([anthropic, ollama]);
    await step(1);
    await step(2, true);
    expect(mayAnswer(route, 1)).toBe(true);
    expect(asked).toEqual(["anthropic:claude-haiku-4-5", "anthropic:claude-haiku-4-5"]);
  });

  it("lets the local model answer when the route has no cloud model", async () => {
    const { route, step } = turnRoute([ollama], true);
    await step(1);
    expect(mayAnswer(route, 1)).toBe(true);
  });
});

describe("a conversation whose own provider has no key", () => {
  it("goes to its fallback and names its own model as unconfigured", async () => {
    const asked: string[] = [];
    const failed: string[] = [];
    const route: StepRoute = {
      models: [openai, anthropic],
      providerFor: (m) => scripted(m.provider, ok("fallback"), asked),
      stream: (p, r) => p.stream(r),
      firstEventTimeoutMs: 5_000,
      knownDown: new Map(),
      localFirst: false,
      record: newRouteRecord(),
      onFallback: () => {},
      onServed: (_s, _m, f) => failed.push(...f.map((x) => `${x.provider}: ${x.reason}`)),
    };
    const request: ModelRequest = { model: openai.model, system: "", messages: [], tools: [] };
    const events: StreamEvent[] = [];
    for await (const e of streamRouted(route, null, request, 1)) events.push(e);
    expect(events).toEqual(ok("fallback"));
    expect(asked).toEqual(["anthropic:claude-haiku-4-5"]);
    expect(failed).toEqual(["openai: this deployment has no key for it."]);
  });
});
