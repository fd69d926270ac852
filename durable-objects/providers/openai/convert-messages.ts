// Neutral history → OpenAI chat messages: each tool result a `tool` message answering its call
// id (OpenAI's tool messages hold text only, so images a tool returned follow in one user
// message); calls without results and stray results repaired first (see pair-tool-results.ts).
import type OpenAI from "openai";
import { imageAttachedBelow, pairToolResults, toolResultText } from "../pair-tool-results";
import { argumentsText } from "../tool-arguments";
import type { NeutralMessage, NeutralPart } from "../types";

type Msg = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type ContentPart = OpenAI.Chat.Completions.ChatCompletionContentPart;
type ToolResult = Extract<NeutralPart, { type: "tool_result" }>;

const imagePart = (mediaType: string, data: string): ContentPart => ({
  type: "image_url",
  image_url: { url: `data:${mediaType};base64,${data}` },
});

function assistantMessage(parts: readonly NeutralPart[]): Msg {
  const text = parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
  const calls = parts.flatMap((p) =>
    p.type === "tool_call"
      ? [
          {
            id: p.id,
            type: "function" as const,
            function: {
              name: p.name,
              arguments: argumentsText(p.arguments),
            },
          },
        ]
      : [],
  );
  return { role: "assistant", content: text || null, ...(calls.length && { tool_calls: calls }) };
}

function toolMessage(r: ToolResult): Msg {
  return { role: "tool", tool_call_id: r.callId, content: toolResultText(r, imageAttachedBelow) };
}

export function toOpenAIMessages(
  system: string | undefined,
  messages: readonly NeutralMessage[],
): Msg[] {
  const out: Msg[] = system ? [{ role: "system", content: system }] : [];
  for (const m of pairToolResults(messages)) {
    if (m.role === "assistant") {
      out.push(assistantMessage(m.content));
      continue;
    }
    const parts: ContentPart[] = [];
    for (const p of m.content) {
      if (p.type === "tool_result") {
        out.push(toolMessage(p));
        for (const c of p.content)
          if (c.type === "image") parts.push(imagePart(c.mediaType, c.data));
      } else if (p.type === "text" && p.text) parts.push({ type: "text", text: p.text });
      else if (p.type === "image") parts.push(imagePart(p.mediaType, p.data));
      // The loop sends PDFs to OpenAI as their text (loop/attachment-parts.ts); never as bytes.
      else if (p.type === "document")
        parts.push({ type: "text", text: `[PDF ${p.name}: not readable here as a file]` });
    }
    if (parts.length === 0) continue;
    const only = parts.length === 1 ? parts[0] : undefined;
    out.push({ role: "user", content: only?.type === "text" ? only.text : parts });
  }
  return out;
}
