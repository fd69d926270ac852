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
  if (reason === PROMPT_BLOCKED) return { type: "finish", reason: "content_filter" };
  return { type: "finish", reason: FINISH[reason] ?? "stop" };
}
