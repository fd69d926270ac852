// The kept steps of a continued answer as the model saw them when it made them: one assistant
// message per step (its text and calls), each followed by the full results. Earlier turns go to
// the model shortened (history.ts); the steps a branch continues from are its own turn's, so
// their results stay whole and the model has no reason to call a tool again.
import type { NeutralMessage, NeutralPart } from "../../providers/types";
import { compactResult, type StoredResult } from "../history";
import type { ShownPart } from "./branch-source";

type ToolCallPart = Extract<ShownPart, { type: "tool_call" }>;

export function keptStepMessages(
  shown: readonly ShownPart[],
  stepOf: (callId: string) => number | undefined,
  resultOf: (callId: string) => StoredResult | undefined,
  safeName: (server: string, tool: string) => string,
): NeutralMessage[] {
  const out: NeutralMessage[] = [];
  let text = "";
  let calls: ToolCallPart[] = [];
  const flush = () => {
    if (calls.length === 0) return;
    const name = (c: ToolCallPart) => safeName(c.server, c.tool);
    out.push({
      role: "assistant",
      content: [
        ...(text ? [{ type: "text" as const, text }] : []),
        ...calls.map((c): NeutralPart => ({
          type: "tool_call",
          id: c.callId,
          name: name(c),
          arguments: c.arguments ?? {},
        })),
      ],
    });
    out.push({
      role: "tool",
      content: calls.map((c): NeutralPart => {
        const stored = resultOf(c.callId);
        return {
          type: "tool_result",
          callId: c.callId,
          name: name(c),
          ...(stored?.isError && { isError: true }),
          content: stored ? stored.forModel : compactResult(c, stored),
        };
      }),
    });
    text = "";
    calls = [];
  };
  for (const part of shown) {
    if (part.type === "text") {
      // Text after a step's calls opens the next step.
      flush();
      text += part.text;
    } else if (part.type === "tool_call") {
      const first = calls[0];
      if (first && stepOf(first.callId) !== stepOf(part.callId)) flush();
      calls.push(part);
    }
  }
  flush();
  return out;
}
