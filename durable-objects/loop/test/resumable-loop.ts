// A loop for resume tests: one lookup tool, a model that plays `steps` from `from` on and stops
// the process at its `stopAt`th request, and a window that holds the newest `keep` messages of
// the history. It keeps every request and every checkpoint.
import type { ModelRequest, StreamEvent } from "../../providers/types";
import { omittedNote } from "../context-fit";
import type { LoopDeps, LoopState } from "../types";
import { lookupDeps } from "./scripted-loop";

export function resumableLoop(opts: {
  steps: StreamEvent[][];
  keep: number;
  from?: number;
  stopAt?: number;
}) {
  const { steps, keep, from = 0, stopAt } = opts;
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
    ...lookupDeps(),
    saveArtifact: async (d) => ({ id: "a", type: d.type, title: d.title }),
    checkpoint: (s) => void checkpoints.push(structuredClone(s)),
    emit: () => undefined,
    recordUsage: () => undefined,
    fitContext: (messages, system) => ({
      messages: messages.slice(-keep),
      system: system + omittedNote(messages.length - keep),
      omittedMessages: messages.length - keep,
    }),
  };
  return { deps, requests, checkpoints };
}

/** A step that calls the lookup tool, then one that answers. */
export const lookupThenAnswer: StreamEvent[][] = [
  [
    { type: "tool_call", id: "c1", name: "kb__lookup", arguments: { q: "x" } },
    { type: "finish", reason: "tool_calls" },
  ],
  [
    { type: "text_delta", text: "Done." },
    { type: "finish", reason: "stop" },
  ],
];
