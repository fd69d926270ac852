// Gemini's finish reasons → the neutral ones. Two of them mean the model broke down rather than
// finished (a function call it could not form, a call to a tool it was not offered): those are
// errors worth a retry, not an empty answer.
import { providerError } from "../errors";
import type { FinishReason, StreamEvent } from "../types";

const FINISH: Record<string, FinishReason> = {
  STOP: "stop",
  MAX_TOKENS: "length",
  SAFETY: "content_filter",
  RECITATION: "content_filter",
  LANGUAGE: "content_filter",
  BLOCKLIST: "content_filter",
  PROHIBITED_CONTENT: "content_filter",
  SPII: "content_filter",
  IMAGE_SAFETY: "content_filter",
};

const BROKEN = new Set(["MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL"]);

/** Stands for a prompt Gemini blocked before answering (no candidate, `promptFeedback` only). */
export const PROMPT_BLOCKED = "PROMPT_BLOCKED";

export function mapGeminiFinish(
  reason: string,
  hadCalls: boolean,
  /** Why Gemini blocked the prompt (`promptFeedback.blockReason`), for PROMPT_BLOCKED. */
  blockReason?: string,
): Extract<StreamEvent, { type: "finish" } | { type: "error" }> {
  if (BROKEN.has(reason))
    return {
      type: "error",
      error: providerError(
        "server_error",
        `Gemini stopped without a usable answer (finish reason ${reason}): the model could not form its tool call.`,
      ),
    };
  if (hadCalls) return { type: "finish", reason: "tool_calls" };
  if (reason === PROMPT_BLOCKED)
    return {
      type: "finish",
      reason: "content_filter",
      detail: `Gemini blocked the request itself${blockReason ? ` (${blockReason})` : ""}.`,
    };
  const why = BLOCKED_WHY[reason];
  return { type: "finish", reason: FINISH[reason] ?? "stop", ...(why && { detail: why }) };
}

// What each block means, for the user: RECITATION is not a safety matter, LANGUAGE not the content.
const BLOCKED_WHY: Record<string, string> = {
  SAFETY: "Gemini's safety filter blocked it (SAFETY).",
  RECITATION:
    "Gemini stopped it for reciting text it was trained on, such as copyrighted text (RECITATION).",
  LANGUAGE: "Gemini does not answer in this language (LANGUAGE).",
  BLOCKLIST: "it held terms on Gemini's blocklist (BLOCKLIST).",
  PROHIBITED_CONTENT: "Gemini blocked it as prohibited content (PROHIBITED_CONTENT).",
  SPII: "it held sensitive personal information (SPII).",
  IMAGE_SAFETY: "Gemini's safety filter blocked an image (IMAGE_SAFETY).",
};
