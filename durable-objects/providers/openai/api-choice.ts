// Which of OpenAI's APIs a configuration calls. Kept apart from the adapter, which loads the SDK:
// the conversation asks it too, to know whether OpenAI reads its PDFs (only the Responses API
// takes files).
import type { ProviderConfig } from "../types";

export const OPENAI_APIS = ["responses", "chat-completions"] as const;
/** What OPENAI_REASONING_SUMMARY may say (OpenAI's `reasoning.summary`). */
export const REASONING_SUMMARIES = ["auto", "concise", "detailed"] as const;
export type ReasoningSummary = (typeof REASONING_SUMMARIES)[number];
export const isReasoningSummary = (value: string): value is ReasoningSummary =>
  (REASONING_SUMMARIES as readonly string[]).includes(value);

/** OpenAI's own API by default (no base URL, or api.openai.com). */
export const isOfficialOpenAI = (config: ProviderConfig): boolean =>
  !config.baseURL || new URL(config.baseURL).hostname === "api.openai.com";

/**
 * OPENAI_API when set (checked by the adapter, which refuses any other value); otherwise the
 * Responses API for OpenAI itself and chat completions, which compatible servers speak, elsewhere.
 */
export const openaiApiOf = (config: ProviderConfig): string =>
  config.openaiApi ?? (isOfficialOpenAI(config) ? "responses" : "chat-completions");
