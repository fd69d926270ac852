// The cheap model each provider uses for housekeeping calls (titles, summaries): fast, low-priced,
// good enough to name or condense a conversation. Ollama has no price: it uses the conversation's
// own model, the one model we know is pulled.
import type { ProviderId } from "../providers/types";

const CHEAP: Record<Exclude<ProviderId, "ollama">, string> = {
  anthropic: "claude-haiku-4-5",
  openai: "gpt-4o-mini",
  gemini: "gemini-2.5-flash-lite",
};

export function cheapModel(provider: ProviderId, conversationModel: string): string {
  return provider === "ollama" ? conversationModel : CHEAP[provider];
}
