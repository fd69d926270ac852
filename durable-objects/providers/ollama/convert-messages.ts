// Neutral history → Ollama chat messages: text as one string per message, images as base64
// strings beside it, the assistant's thinking in `thinking`, its calls as `tool_calls` with
// object arguments, and each result as a `tool` message naming its tool (`tool_name`). Ollama's
// tool messages hold text only, so images a tool returned follow in one user message.
import { imageAttachedBelow, pairToolResults, toolResultText } from "../pair-tool-results";
import { argumentsObject } from "../tool-arguments";
import type { NeutralMessage, NeutralPart } from "../types";

export interface OllamaMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
  images?: string[];
  thinking?: string;
  tool_calls?: Array<{ function: { name: string; arguments: Record<string, unknown> } }>;
  tool_name?: string;
}

const texts = (parts: readonly NeutralPart[], type: "text" | "reasoning") =>
  parts.flatMap((p) => (p.type === type && p.text.trim() ? [p.text] : []));

function assistantMessage(parts: readonly NeutralPart[]): OllamaMessage {
  const thinking = texts(parts, "reasoning").join("\n");
  const calls = parts.flatMap((p) =>
    p.type === "tool_call"
      ? [{ function: { name: p.name, arguments: argumentsObject(p.arguments) } }]
      : [],
  );
  return {
    role: "assistant",
    content: texts(parts, "text").join("\n"),
    ...(thinking && { thinking }),
    ...(calls.length > 0 && { tool_calls: calls }),
  };
}

export function toOllamaMessages(
  system: string | undefined,
  messages: readonly NeutralMessage[],
): OllamaMessage[] {
  const out: OllamaMessage[] = system ? [{ role: "system", content: system }] : [];
  for (const m of pairToolResults(messages)) {
    if (m.role === "assistant") {
      out.push(assistantMessage(m.content));
      continue;
    }
    const images: string[] = [];
    for (const p of m.content) {
      if (p.type === "image") images.push(p.data);
      if (p.type !== "tool_result") continue;
      out.push({
        role: "tool",
        tool_name: p.name,
        content: toolResultText(p, imageAttachedBelow),
      });
      for (const c of p.content) if (c.type === "image") images.push(c.data);
    }
    // The loop sends PDFs to Ollama as their text (loop/attachment-parts.ts); never as bytes.
    const documents = m.content.flatMap((p) =>
      p.type === "document" ? [`[PDF ${p.name}: not readable here as a file]`] : [],
    );
    const text = [...texts(m.content, "text"), ...documents].join("\n");
    if (text || images.length)
      out.push({ role: "user", content: text, ...(images.length > 0 && { images }) });
  }
  return out;
}
