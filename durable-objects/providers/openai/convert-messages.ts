// Neutral history → OpenAI chat messages: tool results as `tool` messages, one per call.
import type OpenAI from "openai";
import type { NeutralMessage } from "../types";

type Msg = OpenAI.Chat.Completions.ChatCompletionMessageParam;

export function toOpenAIMessages(
  system: string | undefined,
  messages: readonly NeutralMessage[],
): Msg[] {
  const out: Msg[] = system ? [{ role: "system", content: system }] : [];
  for (const m of messages) {
    if (m.role === "assistant") {
      const text = m.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
      const calls = m.content.flatMap((p) =>
        p.type === "tool_call"
          ? [
              {
                id: p.id,
                type: "function" as const,
                function: {
                  name: p.name,
                  arguments:
                    typeof p.arguments === "string"
                      ? p.arguments
                      : JSON.stringify(p.arguments ?? {}),
                },
              },
            ]
          : [],
      );
      out.push({
        role: "assistant",
        content: text || null,
        ...(calls.length && { tool_calls: calls }),
      });
      continue;
    }
    const parts: OpenAI.Chat.Completions.ChatCompletionContentPart[] = [];
    for (const p of m.content) {
      if (p.type === "text" && p.text) parts.push({ type: "text", text: p.text });
      else if (p.type === "image")
        parts.push({
          type: "image_url",
          image_url: { url: `data:${p.mediaType};base64,${p.data}` },
        });
      else if (p.type === "tool_result") {
        const text = p.content
          .flatMap((c) => (c.type === "text" ? [c.text] : ["[image]"]))
          .join("\n");
        out.push({
          role: "tool",
          tool_call_id: p.callId,
          content: p.isError ? `Error: ${text}` : text || "(empty)",
        });
      }
    }
    if (parts.length > 0)
      out.push({
        role: "user",
        content: parts.length === 1 && parts[0]!.type === "text" ? parts[0]!.text : parts,
      });
  }
  return out;
}
