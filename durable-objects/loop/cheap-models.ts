// The cheap model each provider uses for housekeeping calls (titles, summaries): fast, low-priced,
// good enough to name or condense a conversation. Ollama has no price: it uses the conversation's
// own model, the one model we know is pulled. An operator may name others (CHEAP_MODELS).
import { z } from "zod";
import type { ProviderId } from "../providers/types";

const CHEAP: Record<Exclude<ProviderId, "ollama">, string> = {
  anthropic: "claude-haiku-4-5",
  openai: "gpt-6-luna",
  gemini: "gemini-3.1-flash-lite",
};

/** The operator's overrides: `{ "anthropic": "claude-haiku-4-5", "ollama": "qwen3:4b" }`. */
export const CheapModelOverrides = z
  .object({
    anthropic: z.string().min(1).max(200),
    openai: z.string().min(1).max(200),
    gemini: z.string().min(1).max(200),
    ollama: z.string().min(1).max(200),
  })
  .partial()
  .strict();
export type CheapModelOverrides = z.infer<typeof CheapModelOverrides>;

/** CHEAP_MODELS read: unset or empty is no override; a bad value is an error and no override. */
export function parseCheapModels(configured: string | undefined): {
  overrides: CheapModelOverrides;
  error?: string;
} {
  if (!configured?.trim()) return { overrides: {} };
  let json: unknown;
  try {
    json = JSON.parse(configured);
  } catch {
    return {
      overrides: {},
      error: `CHEAP_MODELS is not JSON; the built-in cheap models are used.`,
    };
  }
  const parsed = CheapModelOverrides.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      overrides: {},
      error:
        `CHEAP_MODELS is ignored (${issue?.path.join(".") || "value"}: ${issue?.message}); ` +
        `set it to JSON such as {"anthropic": "claude-haiku-4-5"}.`,
    };
  }
  return { overrides: parsed.data };
}

export function cheapModel(
  provider: ProviderId,
  conversationModel: string,
  overrides: CheapModelOverrides = {},
): string {
  return overrides[provider] ?? (provider === "ollama" ? conversationModel : CHEAP[provider]);
}
