// Which provider and model write a conversation's title and summary. The conversation's own
// provider may have no key on this deployment (it then runs on its route), so the first configured
// one among its own and its route's is used, with that provider's cheap model; a conversation may
// name its own (settings.housekeepingModel) and the operator the cheap models (CHEAP_MODELS).
import type { Env } from "../../shared/env";
import { cheapModel, parseCheapModels, type CheapModelOverrides } from "../loop/cheap-models";
import { thinksByDefault } from "../providers/anthropic/model-family";
import { thinks, wantsDefaultTemperature } from "../providers/gemini/model-family";
import { createProvider, providerConfigFromEnv } from "../providers/registry";
import type { ModelProvider, ReasoningEffort } from "../providers/types";
import type { ConversationInfo } from "./turn";

export interface HousekeepingModel {
  provider: ModelProvider;
  model: string;
}

/** Titles and summaries are written cool, so they keep to the instruction. */
const HOUSEKEEPING_TEMPERATURE = 0.2;

/**
 * The temperature a title or summary is asked at: low, except for models whose vendor advises
 * against changing it (Gemini 3 and later). The adapters leave it out for models that refuse one.
 */
export function housekeepingTemperature(writer: HousekeepingModel): number | undefined {
  return writer.provider.id === "gemini" && wantsDefaultTemperature(writer.model)
    ? undefined
    : HOUSEKEEPING_TEMPERATURE;
}

/**
 * How hard a title or summary is thought over: little, by the models that reason anyway (OpenAI's
 * reasoning models, to which the adapter alone sends it; Gemini 2.5 and later; Claude 5 and
 * later). The others are asked nothing: an effort would switch thinking on for Claude 3.7 to 4.6.
 */
export function housekeepingEffort(writer: HousekeepingModel): ReasoningEffort | undefined {
  switch (writer.provider.id) {
    case "openai":
      return "low";
    case "gemini":
      return thinks(writer.model) ? "low" : undefined;
    case "anthropic":
      return thinksByDefault(writer.model) ? "low" : undefined;
    case "ollama":
      return undefined;
  }
}

let cached: { configured: string | undefined; overrides: CheapModelOverrides } | null = null;

/** The operator's CHEAP_MODELS, read once per value; a bad one is logged and ignored. */
function cheapModelOverrides(env: Pick<Env, "CHEAP_MODELS">): CheapModelOverrides {
  if (cached && cached.configured === env.CHEAP_MODELS) return cached.overrides;
  const { overrides, error } = parseCheapModels(env.CHEAP_MODELS);
  if (error) console.error(JSON.stringify({ level: "error", event: "config", message: error }));
  cached = { configured: env.CHEAP_MODELS, overrides };
  return overrides;
}

/** The model for titles and summaries, or null when no provider it could use has a key here. */
export function housekeepingModel(
  env: Env,
  conversation: Pick<ConversationInfo, "provider" | "model" | "settings">,
): HousekeepingModel | null {
  const chosen = conversation.settings.housekeepingModel;
  if (chosen) {
    const config = providerConfigFromEnv(env, chosen.provider);
    if (config) return { provider: createProvider(chosen.provider, config), model: chosen.model };
  }
  const candidates = [
    { provider: conversation.provider, model: conversation.model },
    ...(conversation.settings.route ?? []),
  ];
  for (const candidate of candidates) {
    const config = providerConfigFromEnv(env, candidate.provider);
    if (!config) continue;
    return {
      provider: createProvider(candidate.provider, config),
      model: cheapModel(candidate.provider, candidate.model, cheapModelOverrides(env)),
    };
  }
  return null;
}
