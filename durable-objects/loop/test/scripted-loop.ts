// A loop wired to real parts except the model: a scripted provider that plays one step per model
// call and keeps every request, an in-memory call log, and tools answered by a given function.
import { buildToolNameMap } from "../../providers/tool-names";
import type { ModelRequest, StreamEvent } from "../../providers/types";
import type { NewServerEvent } from "../../protocol/wire";
import { runThinkingLoop } from "../loop";
import type {
  CatalogTool,
  LoopDeps,
  LoopInput,
  ToolCallLog,
  ToolCallOutcome,
  ToolCallRecord,
} from "../types";

export function memoryLog(): ToolCallLog {
  const records = new Map<string, ToolCallRecord>();
  return {
    findDone: (key) =>
      [...records.values()].find((r) => r.key === key && r.status === "done") ?? null,
    find: (id) => records.get(id) ?? null,
    idsLike: (id) => [...records.keys()].filter((k) => k === id || k.startsWith(`${id}_`)),
    start: (r) => void records.set(r.id, { ...r, status: "started" }),
    finish: (id, status, result) =>
      void records.set(id, { ...records.get(id)!, status, ...(result && { result }) }),
  };
}

/** kb's lookup, the one tool of the loop tests that need a tool. */
export const LOOKUP: CatalogTool = {
  server: "kb",
  tool: "lookup",
  description: "look up",
  inputSchema: { type: "object" },
};

/** What a loop needs to offer LOOKUP and run it, answering `answer` (the text "42"). */
export function lookupDeps(
  answer: ToolCallOutcome = { ok: true, result: { content: [{ type: "text", text: "42" }] } },
): Pick<LoopDeps, "tools" | "calls" | "toolNames"> {
  return {
    tools: { catalog: async () => ({ tools: [LOOKUP], warnings: [] }), call: async () => answer },
    calls: memoryLog(),
    toolNames: buildToolNameMap([LOOKUP]),
  };
}

export interface ScriptedRun {
  steps: StreamEvent[][];
  tools: CatalogTool[];
  answer?: (tool: string, args: Record<string, unknown>) => ToolCallOutcome;
  input?: Partial<LoopInput>;
  deps?: Partial<LoopDeps>;
}

export async function runScripted(run: ScriptedRun) {
  const requests: ModelRequest[] = [];
  const events: NewServerEvent[] = [];
  const calls: { tool: string; args: Record<string, unknown> }[] = [];
  const deps: LoopDeps = {
    provider: {
      id: "openai",
      async *stream(request: ModelRequest) {
        requests.push(structuredClone({ ...request, signal: undefined }));
        yield* run.steps[requests.length - 1] ?? [];
      },
    },
    stream: (p, r) => p.stream(r),
    tools: {
      catalog: async () => ({ tools: run.tools, warnings: [] }),
      call: async (_server, tool, args) => {
        calls.push({ tool, args });
        return (
          run.answer?.(tool, args) ?? {
            ok: true,
            result: { content: [{ type: "text", text: `${tool} ran` }] },
          }
        );
      },
    },
    calls: memoryLog(),
    toolNames: buildToolNameMap(run.tools),
    saveArtifact: async (d) => ({ id: "a", type: d.type, title: d.title }),
    checkpoint: () => undefined,
    emit: (e) => void events.push(e),
    recordUsage: () => undefined,
    ...run.deps,
  };
  const outcome = await runThinkingLoop(deps, {
    turnId: "t",
    messageId: "m",
    model: "m",
    system: "s",
    history: [{ role: "user", content: [{ type: "text", text: "go" }] }],
    maxSteps: 5,
    maxTokens: 100,
    signal: new AbortController().signal,
    ...run.input,
  });
  return { outcome, requests, events, calls };
}

/** The text of the tool results the model was sent in request n (0-based). */
export function toolResultsIn(request: ModelRequest | undefined): string[] {
  return (request?.messages ?? [])
    .flatMap((m) => m.content)
    .flatMap((p) =>
      p.type === "tool_result"
        ? [p.content.map((c) => (c.type === "text" ? c.text : "")).join("\n")]
        : [],
    );
}

export const call = (id: string, name: string, args: unknown): StreamEvent => ({
  type: "tool_call",
  id,
  name,
  arguments: args,
});
export const stop: StreamEvent = { type: "finish", reason: "stop" };
export const toolStop: StreamEvent = { type: "finish", reason: "tool_calls" };
export const say = (text: string): StreamEvent => ({ type: "text_delta", text });
