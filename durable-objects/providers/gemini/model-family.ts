// What a Gemini model's version says about how to call it. No SDK here: the housekeeping model's
// choice reads it too.

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
