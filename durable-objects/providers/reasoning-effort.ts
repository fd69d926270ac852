// What a conversation's reasoning effort asks of a model in tokens: a thinking budget where the
// provider takes one (Claude 3.7 to 4.5, Gemini 2.5), and room for the reasoning on top of the
// answer's own max tokens where reasoning counts within them (Anthropic, OpenAI), so that more
// thought does not cut the answer short.
import type { ReasoningEffort } from "./types";

export const REASONING_TOKENS: Record<ReasoningEffort, number> = {
  low: 2_048,
  medium: 8_192,
  high: 16_384,
};

/** The answer's max tokens plus its effort's reasoning room (unchanged without an effort). */
export const withReasoningRoom = (answerTokens: number, effort: ReasoningEffort | undefined) =>
  effort ? answerTokens + REASONING_TOKENS[effort] : answerTokens;
