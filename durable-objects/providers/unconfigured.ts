// A provider this deployment has no key for: every stream is one `not_configured` error. It
// stands in for a conversation's own provider when its route's fallbacks serve the steps.
import { providerError } from "./errors";
import type { ModelProvider, ProviderId } from "./types";

export function unconfiguredProvider(id: ProviderId, message: string): ModelProvider {
  return {
    id,
    async *stream() {
      yield { type: "error", error: providerError("not_configured", message) };
    },
  };
}
