import { expect, it } from "vitest";
import type { ModelRequest, StreamEvent } from "../providers/types";
import { runThinkingLoop } from "./loop";
import { call, lookupDeps, LOOKUP, runScripted, say, stop, toolStop } from "./test/scripted-loop";
import type { LoopDeps } from "./types";

/** A provider that plays one scripted step per model call and keeps what it was sent. */
function scripted(steps: StreamEvent[][]) {
  const requests: ModelRequest[] = [];
  return {
    requests,
    provider: {
      id: "gemini" as const,
      async *stream(request: ModelRequest) {
        requests.push(structuredClone({ ...request, signal: undefined }));
        yield* steps[requests.length - 1] ?? [];
      },
    },
  };
}

it("sends a tool call back to the model with the thought signature it came with", async () => {
  const { provider, requests } = scripted([
    [
      {
        type: "tool_call",
        id: "c1",
        name: "kb__lookup",
        arguments: { q: "x" },
        signature: "sig-abc",
      },
      { type: "finish", reason: "tool_calls" },
    ],
    [
      { type: "text_delta", text: "Found it." },
      { type: "finish", reason: "stop" },
    ],
  ]);
  const deps: LoopDeps = {
    provider,
    stream: (p, r) => p.stream(r),
    ...lookupDeps(),
    saveArtifact: async (d) => ({ id: "a", type: d.type, title: d.title }),
    checkpoint: () => undefined,
    emit: () => undefined,
    recordUsage: () => undefined,
  };
  const outcome = await runThinkingLoop(deps, {
    turnId: "t",
    messageId: "m",
    model: "gemini-3-pro",
    system: "s",
    history: [{ role: "user", content: [{ type: "text", text: "look it up" }] }],
    maxSteps: 3,
    maxTokens: 100,
    signal: new AbortController().signal,
  });
  expect(outcome.status).toBe("complete");
  const call = requests[1]?.messages.flatMap((m) => m.content).find((p) => p.type === "tool_call");
  expect(call).toMatchObject({ id: "c1", name: "kb__lookup", signature: "sig-abc" });
});

it("records which artifacts a tool result was saved as, so a shortened copy can point to them", async () => {
  const { provider } = scripted([
    [
      { type: "tool_call", id: "c1", name: "kb__lookup", arguments: { q: "x" } },
      { type: "finish", reason: "tool_calls" },
    ],
    [
      { type: "text_delta", text: "Saved." },
      { type: "finish", reason: "stop" },
    ],
  ]);
  const lookup = lookupDeps({
    ok: true,
    result: {
      content: [{ type: "text", text: "many rows" }],
      artifacts: [{ type: "table", title: "All rows", content: "a,b\n1,2" }],
    },
  });
  const { calls } = lookup;
  const deps: LoopDeps = {
    provider,
    stream: (p, r) => p.stream(r),
    ...lookup,
    saveArtifact: async (d) => ({ id: "art-7", type: d.type, title: d.title }),
    checkpoint: () => undefined,
    emit: () => undefined,
    recordUsage: () => undefined,
  };
  await runThinkingLoop(deps, {
    turnId: "t",
    messageId: "m",
    model: "gemini-3-pro",
    system: "s",
    history: [{ role: "user", content: [{ type: "text", text: "look it up" }] }],
    maxSteps: 3,
    maxTokens: 100,
    signal: new AbortController().signal,
  });
  expect(calls.find("c1")?.result?.artifacts).toEqual([{ id: "art-7", title: "All rows" }]);
});

it("asks every step's model call for the window the history was fitted to", async () => {
  const { requests } = await runScripted({
    tools: [LOOKUP],
    steps: [
      [call("c1", "kb__lookup", {}), toolStop],
      [say("Done."), stop],
    ],
    input: { contextTokens: 32_768 },
  });
  expect(requests.map((r) => r.contextTokens)).toEqual([32_768, 32_768]);
});
