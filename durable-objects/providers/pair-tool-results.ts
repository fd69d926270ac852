// Anthropic and OpenAI refuse a history in which a tool call has no result right after it, or a
// result answers no call. Histories like that happen (a turn interrupted mid-call, a history cut
// to fit the context), so before conversion every call gets its result and every stray result is
// kept as plain context instead of failing the whole request.
import type { NeutralMessage, NeutralPart } from "./types";

type ToolResult = Extract<NeutralPart, { type: "tool_result" }>;

export const MISSING_RESULT_TEXT =
  "No result was recorded for this call (the turn was interrupted before it finished).";

const strayResultText = (r: ToolResult) =>
  `[Result of an earlier ${r.name} call]\n` +
  r.content.flatMap((c) => (c.type === "text" ? [c.text] : [`[${c.mediaType} image]`])).join("\n");

export function pairToolResults(messages: readonly NeutralMessage[]): NeutralMessage[] {
  const out: NeutralMessage[] = [];
  // Calls of the latest assistant message still waiting for their results.
  let open: Extract<NeutralPart, { type: "tool_call" }>[] = [];
  const closeOpen = () => {
    if (open.length === 0) return;
    out.push({
      role: "tool",
      content: open.map((c) => ({
        type: "tool_result",
        callId: c.id,
        name: c.name,
        isError: true,
        content: [{ type: "text", text: MISSING_RESULT_TEXT }],
      })),
    });
    open = [];
  };
  for (const m of messages) {
    if (m.role === "assistant") {
      closeOpen();
      out.push(m);
      open = m.content.filter((p) => p.type === "tool_call");
      continue;
    }
    const results: NeutralPart[] = [];
    const rest: NeutralPart[] = [];
    for (const p of m.content) {
      if (p.type !== "tool_result") rest.push(p);
      else if (open.some((c) => c.id === p.callId)) {
        open = open.filter((c) => c.id !== p.callId);
        results.push(p);
      } else rest.push({ type: "text", text: strayResultText(p) });
    }
    // Results first, then anything else the user said, and no more open calls after a user turn.
    if (results.length) out.push({ role: "tool", content: results });
    if (rest.length) {
      closeOpen();
      out.push({ role: m.role === "tool" ? "user" : m.role, content: rest });
    }
  }
  closeOpen();
  return out;
}

/** How an image a tool returned is named in its text, where it follows in a user message. */
export const imageAttachedBelow = (mediaType: string) => `[image ${mediaType}, attached below]`;

/**
 * A result as the wire formats that carry it as a string read it (OpenAI's, Ollama's): its texts
 * a line each, an image as `imageText` names it (left out without it), "Error: " before a failed
 * call's, and "(no output)" for an empty one.
 */
export function toolResultText(r: ToolResult, imageText?: (mediaType: string) => string): string {
  const text = r.content
    .flatMap((c) => (c.type === "text" ? [c.text] : imageText ? [imageText(c.mediaType)] : []))
    .join("\n");
  return r.isError ? `Error: ${text}` : text || "(no output)";
}
