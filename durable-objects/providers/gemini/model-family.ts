// What a Gemini model's version says about how to call it. No SDK here: the housekeeping model's
// choice reads it too.
import { REASONING_TOKENS } from "../reasoning-effort";
import type { ReasoningEffort } from "../types";

const version = (model: string) =>
  Number(/^(?:models\/)?gemini-(\d+(?:\.\d+)?)/.exec(model)?.[1] ?? NaN);

/** Models that think and can show it: Gemini 2.5 and later. */
export const thinks = (model: string) => version(model) >= 2.5;
/** Models that refuse a replayed function call without its thought signature: Gemini 3 and later. */
export const needsSignatures = (model: string) => version(model) >= 3;
/**
 * Models Google advises to leave at the default temperature (1.0): below it, Gemini 3 and later
 * may loop or reason worse. A temperature the user chose is still sent; ours are not.
 */
export const wantsDefaultTemperature = (model: string) => version(model) >= 3;

/**
 * A reasoning effort as the model takes it: Gemini 3 and later as a thinking level (the Pro models
 * know only low and high, so medium leaves them at their default, high), Gemini 2.5 as a budget in
 * tokens; older models do not think.
 */
export function thinkingFor(
  model: string,
  effort: ReasoningEffort,
): { thinkingLevel: Uppercase<ReasoningEffort> } | { thinkingBudget: number } | null {
  if (version(model) >= 3)
    return effort === "medium" && /-pro\b/.test(model)
      ? null
      : { thinkingLevel: effort.toUpperCase() as Uppercase<ReasoningEffort> };
  return thinks(model) ? { thinkingBudget: REASONING_TOKENS[effort] } : null;
}
