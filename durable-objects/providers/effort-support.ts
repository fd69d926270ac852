// Which models act on a conversation's reasoning effort, read from the model's id alone (no SDK):
// the web client offers and shows the effort only for them. Each provider's request builder
// decides the same way, from the same functions.
import { thinkingForm } from "./anthropic/model-family";
import { thinks } from "./gemini/model-family";
import { reasons } from "./openai/sampling";

export function takesReasoningEffort(
  provider: string,
  model: string,
  /** What GET /api/providers says of the provider (an OpenAI-compatible server). */
  info?: { compatibleServer?: boolean | undefined },
): boolean {
  switch (provider) {
    case "anthropic":
      return thinkingForm(model) !== null;
    case "openai":
      // OpenAI's own API; an OpenAI-compatible server (OPENAI_BASE_URL) is never sent one.
      return reasons(model, !info?.compatibleServer);
    case "gemini":
      return thinks(model);
    case "ollama":
      // Any model: an effort turns Ollama's `think` on, and the model says if it cannot.
      return true;
    default:
      return false;
  }
}
