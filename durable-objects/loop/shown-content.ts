// The answer's body as the user saw it stream: reasoning, text and tool calls in the order they
// came, merged like the clients' fold (protocol/transcript.ts) merges deltas. Every outcome of a
// turn (complete, failed, cancelled) keeps it, then adds its own answer and the artifacts.
import type { MessagePart } from "../protocol/messages";
import type { LoopState } from "./types";

type ShownPart = LoopState["shown"][number];
type ToolPart = Extract<ShownPart, { type: "tool_call" }>;

/** Adds a streamed delta, extending the last part when it is of the same kind. */
export function appendDelta(state: LoopState, kind: "text" | "reasoning", delta: string): void {
  const last = state.shown.at(-1);
  if (last && last.type === kind) {
    state.shown = [...state.shown.slice(0, -1), { type: kind, text: last.text + delta }];
  } else {
    state.shown = [...state.shown, { type: kind, text: delta }];
  }
}

export function addToolPart(state: LoopState, part: ToolPart): void {
  state.shown = [...state.shown, part];
}

export function updateToolPart(state: LoopState, callId: string, patch: Partial<ToolPart>): void {
  state.shown = state.shown.map((p) =>
    p.type === "tool_call" && p.callId === callId ? { ...p, ...patch } : p,
  );
}

export function hasToolPart(state: LoopState, callId: string): boolean {
  return shownToolPart(state, callId) !== undefined;
}

/** The call as it was shown, if it was (a call that asked for approval was, when it asked). */
export function shownToolPart(state: LoopState, callId: string): ToolPart | undefined {
  return state.shown.find((p): p is ToolPart => p.type === "tool_call" && p.callId === callId);
}

/**
 * The message: what was shown, then the answer (formatter items), then the artifacts. The
 * formatter's summary of its thinking heads the message, joined to the reasoning shown first.
 */
export function finalContent(
  state: LoopState,
  answer: MessagePart[] = [],
  thinking?: string,
): MessagePart[] {
  let shown: MessagePart[] = state.shown.filter((p) => p.type === "tool_call" || p.text.length > 0);
  if (thinking) {
    const first = shown[0];
    shown =
      first?.type === "reasoning"
        ? [{ type: "reasoning", text: `${first.text}\n\n${thinking}` }, ...shown.slice(1)]
        : [{ type: "reasoning", text: thinking }, ...shown];
  }
  return [
    ...shown,
    ...answer.filter((p) => p.type !== "text" || p.text.length > 0),
    ...state.artifactParts,
  ];
}

/** Takes back the last `count` characters streamed of a kind (a stream cut by a guard). */
export function dropShown(state: LoopState, kind: "text" | "reasoning", count: number): void {
  const index = state.shown.findLastIndex((p) => p.type === kind);
  const part = state.shown[index];
  if (!part || part.type !== kind || count <= 0) return;
  const text = part.text.slice(0, Math.max(0, part.text.length - count));
  state.shown = state.shown.map((p, i) => (i === index ? { type: kind, text } : p));
}
