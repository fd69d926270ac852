// Converts stored messages into the provider-neutral history the model sees.
import { type ChatMessage, messageText } from "../protocol/messages";
import type { NeutralMessage } from "../providers/types";

export function toNeutralHistory(messages: readonly ChatMessage[]): NeutralMessage[] {
  const out: NeutralMessage[] = [];
  for (const m of messages) {
    const text = messageText(m.content);
    if (!text) continue;
    out.push({ role: m.role, content: [{ type: "text", text }] });
  }
  return out;
}
