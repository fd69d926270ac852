// What a reasoning effort asks of a model in tokens: a thinking budget where the provider takes
// one (Claude 3.7 to 4.5, Gemini 2.5), and room for the reasoning on top of the answer's own max
// tokens where the provider counts reasoning within them (OpenAI, Gemini, Anthropic), so that
// thought does not eat the answer: a max tokens is a cap, so the room costs only what is used.
import type { ReasoningEffort } from "./types";

export const REASONING_TOKENS: Record<ReasoningEffort, number> = {
  low: 2_048,
  medium: 8_192,
  high: 16_384,
};

/** The effort OpenAI's reasoning models reason at when asked for none. */
const DEFAULT_EFFORT: ReasoningEffort = "medium";

/**
 * A call's max tokens: the answer's own, plus room for the reasoning of a model that reasons, at
 * the effort asked for or at its default one.
 */
export const withReasoningRoom = (
  answerTokens: number,
  reasons: boolean,
  effort: ReasoningEffort | undefined,
) => (reasons ? answerTokens + REASONING_TOKENS[effort ?? DEFAULT_EFFORT] : answerTokens);
