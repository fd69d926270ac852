// Which OpenAI models take a temperature, and which reason. OpenAI's reasoning models (the o-series, gpt-5 and every
// family since) refuse any but the default, so only the older chat models are named here: a new
// OpenAI model is sent no temperature rather than refused. OpenAI-compatible servers get it always.
const TAKES_TEMPERATURE = /^(gpt-4|gpt-3\.5|chatgpt-4o)/;

export const takesTemperature = (model: string, official: boolean): boolean =>
  !official || TAKES_TEMPERATURE.test(model);

/** OpenAI's reasoning models: every official model but the older chat families above. */
export const reasons = (model: string, official: boolean): boolean =>
  official && !TAKES_TEMPERATURE.test(model);
