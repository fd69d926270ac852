// Neutral history → Anthropic Messages: tool results as tool_result blocks in a user turn, and
// consecutive turns of the same role merged (Anthropic requires user/assistant alternation).
import type Anthropic from "@anthropic-ai/sdk";
import type { NeutralMessage } from "../types";

type Block = Anthropic.ContentBlockParam;

export function toAnthropicMessages(messages: readonly NeutralMessage[]): Anthropic.MessageParam[] {
  const out: Anthropic.MessageParam[] = [];
  for (const m of messages) {
    const role = m.role === "assistant" ? "assistant" : "user";
    const blocks: Block[] = [];
    for (const p of m.content) {
      switch (p.type) {
        case "text":
          if (p.text) blocks.push({ type: "text", text: p.text });
          break;
        case "image":
          blocks.push({
            type: "image",
            source: { type: "base64", media_type: p.mediaType as "image/png", data: p.data },
          });
          break;
        case "reasoning":
          // Thinking blocks can only be replayed with their signature.
          if (role === "assistant" && p.signature)
            blocks.push({ type: "thinking", thinking: p.text, signature: p.signature });
          break;
        case "tool_call":
          blocks.push({ type: "tool_use", id: p.id, name: p.name, input: p.arguments ?? {} });
          break;
        case "tool_result":
          blocks.push({
            type: "tool_result",
            tool_use_id: p.callId,
            is_error: p.isError === true,
            content: p.content.map((c) =>
              c.type === "text"
                ? { type: "text" as const, text: c.text || "(empty)" }
                : {
                    type: "image" as const,
                    source: {
                      type: "base64" as const,
                      media_type: c.mediaType as "image/png",
                      data: c.data,
                    },
                  },
            ),
          });
          break;
      }
    }
    if (blocks.length === 0) continue;
    const last = out[out.length - 1];
    if (last && last.role === role) last.content = [...(last.content as Block[]), ...blocks];
    else out.push({ role, content: blocks });
  }
  // The first turn must be the user's.
  if (out[0]?.role === "assistant")
    out.unshift({ role: "user", content: [{ type: "text", text: "(continuing)" }] });
  return out;
}
