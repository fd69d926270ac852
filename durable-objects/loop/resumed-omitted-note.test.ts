// A turn whose history was fitted to the window says in its prompt how many earlier messages were
// left out; resumed from its checkpoint (after a restart) it must still say so.
import { expect, it } from "vitest";
import { buildToolNameMap } from "../providers/tool-names";
import type { ModelRequest, NeutralMessage, StreamEvent } from "../providers/types";
import { runThinkingLoop } from "./loop";
import { omittedNote } from "./context-fit";
import type { LoopDeps, LoopInput, LoopState, ToolCallLog, ToolCallRecord } from "./types";

function memoryLog(): ToolCallLog {
  const records = new Map<string, ToolCallRecord>();
  return {
    findDone: (key) =>
      [...records.values()].find((r) => r.key === key && r.status === "done") ?? null,
    find: (id) => records.get(id) ?? null,
    start: (r) => void records.set(r.id, { ...r, status: "started" }),
    finish: (id, status, result) =>
      void records.set(id, { ...records.get(id)!, status, ...(result && { result }) }),
  };
}

const say = (text: string): NeutralMessage => ({ role: "user", content: [{ type: "text", text }] });

it("a resumed turn's prompt still names the earlier messages left out", async () => {
  const systems: string[] = [];
  const checkpoints: LoopState[] = [];
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
  const deps = (): LoopDeps => ({
    provider: {
      id: "gemini",
      async *stream(request: ModelRequest) {
        systems.push(request.system ?? "");
        yield* steps[systems.length - 1] ?? [];
      },
    },
    stream: (p, r) => p.stream(r),
    tools: {
      catalog: async () => ({
        tools: [
          { server: "kb", tool: "lookup", description: "look up", inputSchema: { type: "object" } },
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
    // The window holds only the newest message: the two before it are left out.
    fitContext: (messages, system) => ({
      messages: messages.slice(-1),
      system: system + omittedNote(messages.length - 1),
      omittedMessages: messages.length - 1,
    }),
  });
  const input: LoopInput = {
    turnId: "t",
    messageId: "m",
    model: "gemini-3-pro",
    system: "s",
    history: [say("first"), say("second"), say("look it up")],
    maxSteps: 3,
    maxTokens: 100,
    signal: new AbortController().signal,
  };
  const first = deps();
  const original = first.provider.stream.bind(first.provider);
  // The process stops after the first step: the model is never asked a second time.
  first.provider.stream = async function* (request) {
    if (systems.length >= 1) throw new Error("restarted");
    yield* original(request);
  };
  await runThinkingLoop(first, input).catch(() => undefined);
  const afterFirstStep = checkpoints.filter((c) => c.step === 1 && !c.pending).at(-1);
  expect(afterFirstStep).toBeDefined();

  const resumed = await runThinkingLoop(deps(), input, afterFirstStep);
  expect(resumed.status).toBe("complete");
  expect(systems).toHaveLength(2);
  expect(systems[0]).toContain(omittedNote(2));
  expect(systems[1]).toContain(omittedNote(2));
});
