// The "models" this endpoint offers: `thinking-chat` (the conversation's own provider and model,
// running the whole thinking loop with the user's MCP servers) and each configured provider's
// models as `<provider>/<model>`, which run the same loop with that model.
import { z } from "zod";
import {
  configuredProviders,
  ENABLING_SETTINGS,
  MODELS,
} from "../../../../durable-objects/providers/registry";
import type { ProviderId } from "../../../../durable-objects/providers/types";
import type { SendOptions } from "../../../../durable-objects/protocol/wire";
import type { Env } from "../../../../shared/env";
import { ApiError } from "../http/errors";
import { PROVIDER_IDS, ProviderIdSchema } from "../routes/providers";

export const THINKING_CHAT_MODEL = "thinking-chat";

export const ModelObject = z.object({
  id: z.string(),
  object: z.literal("model"),
  created: z.number().int(),
  owned_by: z.string(),
});
export type ModelObject = z.infer<typeof ModelObject>;

// A fixed date: the list must not change from one request to the next.
const CREATED = Math.floor(Date.UTC(2026, 0, 1) / 1000);

export function listModels(env: Env): ModelObject[] {
  const configured = new Set(configuredProviders(env));
  return [
    { id: THINKING_CHAT_MODEL, object: "model", created: CREATED, owned_by: "thinking-chat" },
    ...PROVIDER_IDS.filter((p) => configured.has(p)).flatMap((provider) =>
      MODELS[provider].map((model): ModelObject => ({
        id: `${provider}/${model}`,
        object: "model",
        created: CREATED,
        owned_by: provider,
      })),
    ),
  ];
}

/** One model GET /v1/models lists, or null. */
export function modelById(env: Env, id: string): ModelObject | null {
  return listModels(env).find((model) => model.id === id) ?? null;
}

/** The 404 of a model id GET /v1/models does not list; `unconfigured`: its provider, when that is why. */
export function noSuchModel(model: string, unconfigured?: ProviderId): ApiError {
  const named = `The model '${model.slice(0, 80)}' does not exist`;
  return new ApiError(
    404,
    "not_found",
    unconfigured
      ? `${named} here: the ${unconfigured} provider is not configured (the operator sets ${ENABLING_SETTINGS[unconfigured]} to offer it). Use '${THINKING_CHAT_MODEL}' or a model GET /v1/models lists.`
      : `${named}: use '${THINKING_CHAT_MODEL}' or '<provider>/<model>' (GET /v1/models lists them).`,
  );
}

/**
 * What a model id asks of the turn: nothing for thinking-chat, else a provider and model. A
 * provider this deployment does not configure is refused here, before a conversation is made for
 * a turn that could only fail; a model name it does not list is let through (conversations may
 * name any model of their provider).
 */
export function sendOptionsFor(env: Env, model: string): Pick<SendOptions, "provider" | "model"> {
  if (model === THINKING_CHAT_MODEL) return {};
  const slash = model.indexOf("/");
  const provider = ProviderIdSchema.safeParse(model.slice(0, Math.max(slash, 0)));
  const name = model.slice(slash + 1);
  if (slash <= 0 || !provider.success || !name) throw noSuchModel(model);
  if (!configuredProviders(env).includes(provider.data)) throw noSuchModel(model, provider.data);
  return { provider: provider.data, model: name };
}
