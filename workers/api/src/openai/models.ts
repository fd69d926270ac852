// The "models" this endpoint offers: `thinking-chat` (the conversation's own provider and model,
// running the whole thinking loop with the user's MCP servers) and each configured provider's
// models as `<provider>/<model>`, which run the same loop with that model.
import { z } from "zod";
import { configuredProviders, MODELS } from "../../../../durable-objects/providers/registry";
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

/** What a model id asks of the turn: nothing for thinking-chat, else a provider and model. */
export function sendOptionsFor(model: string): Pick<SendOptions, "provider" | "model"> {
  if (model === THINKING_CHAT_MODEL) return {};
  const slash = model.indexOf("/");
  const provider = ProviderIdSchema.safeParse(model.slice(0, Math.max(slash, 0)));
  const name = model.slice(slash + 1);
  if (slash <= 0 || !provider.success || !name)
    throw new ApiError(
      404,
      "not_found",
      `The model '${model.slice(0, 80)}' does not exist: use '${THINKING_CHAT_MODEL}' or '<provider>/<model>' (GET /v1/models lists them).`,
    );
  return { provider: provider.data, model: name };
}
