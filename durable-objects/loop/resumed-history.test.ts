// A checkpoint keeps only the turn's own messages (loop-storage.ts): resumed from one, the turn is
// sent its history again, assembled and fitted as when it began, then what its steps added.
import { expect, it } from "vitest";
import { buildToolNameMap } from "../providers/tool-names";
import type { ModelRequest, NeutralMessage, StreamEvent } from "../providers/types";
import { omittedNote } from "./context-fit";
import { runThinkingLoop } from "./loop";
import { memoryLog } from "./test/scripted-loop";
import type { LoopDeps, LoopInput, LoopState } from "./types";

const say = (text: string): NeutralMessage => ({ role: "user", content: [{ type: "text", text }] });

const steps: StreamEvent[][] = [
  [
    { type: "tool_call", id: "c1", name: "kb__lookup", arguments: { q: "x" } },
    { type: "finish", reason: "tool_calls" },
  ],
  [
    { type: "text_delta", text: "Done." },
    { type: "finish", reason: "stop" },
  ],
];

const input: LoopInput = {
  turnId: "t",
  messageId: "m",
  model: "m",
  system: "s",
  history: [say("first"), say("second"), say("third"), say("look it up")],
  maxSteps: 3,
  maxTokens: 100,
  signal: new AbortController().signal,
};

/**
 * A loop whose model plays `steps` from `from` on (and stops the process at its `stopAt`th
 * request), keeping what it was sent.
 */
function recording({ from = 0, stopAt }: { from?: number; stopAt?: number } = {}) {
  const requests: ModelRequest[] = [];
  const checkpoints: LoopState[] = [];
  const deps: LoopDeps = {
    provider: {
      id: "openai",
      async *stream(request: ModelRequest) {
        if (requests.length === stopAt) throw new Error("restarted");
        requests.push(structuredClone({ ...request, signal: undefined }));
        yield* steps[from + requests.length - 1] ?? [];
      },
    },
    stream: (p, r) => p.stream(r),
    tools: {
      catalog: async () => ({
        tools: [
          { server: "kb", tool: "lookup", description: "d", inputSchema: { type: "object" } },
        ],
        warnings: [],
      }),
      call: async () => ({ ok: true, result: { content: [{ type: "text", text: "42" }] } }),
    },
    calls: memoryLog(),
    toolNames: buildToolNameMap([{ server: "kb", tool: "lookup" }]),
    saveArtifact: async (d) => ({ id: "a", type: d.type, title: d.title }),
    checkpoint: (s) => void checkpoints.push(structuredClone(s)),
    emit: () => undefined,
    recordUsage: () => undefined,
    // The window holds the newest three messages of the history.
    fitContext: (messages, system) => ({
      messages: messages.slice(-3),
      system: system + omittedNote(messages.length - 3),
      omittedMessages: messages.length - 3,
    }),
  };
  return { deps, requests, checkpoints };
}

it("a turn resumed from a checkpoint without its history asks the model as if it had never stopped", async () => {
  const whole = recording();
  expect((await runThinkingLoop(whole.deps, input)).status).toBe("complete");

  const first = recording({ stopAt: 1 });
  await runThinkingLoop(first.deps, input).catch(() => undefined);
  const afterFirstStep = first.checkpoints.filter((c) => c.step === 1 && !c.pending).at(-1)!;
  // As loop-storage stores it: the turn's own messages (the call and its result), no history.
  expect(afterFirstStep.turnFrom).toBe(3);
  const { turnFrom, ...rest } = afterFirstStep;
  const stored: LoopState = {
    ...rest,
    messages: afterFirstStep.messages.slice(turnFrom),
    historyLeftOut: true,
  };
  expect(stored.messages.map((m) => m.role)).toEqual(["assistant", "tool"]);

  const resumed = recording({ from: 1 });
  expect((await runThinkingLoop(resumed.deps, input, stored)).status).toBe("complete");
  expect(resumed.requests).toHaveLength(1);
  expect(resumed.requests[0]!.messages).toEqual(whole.requests[1]!.messages);
  expect(resumed.requests[0]!.system).toEqual(whole.requests[1]!.system);
  expect(resumed.requests[0]!.system).toContain(omittedNote(1));
});
