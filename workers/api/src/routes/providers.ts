import { Hono } from "hono";
import type { ProvidersHealth } from "../../../../durable-objects/protocol/provider-health";
import type { ProviderInfo } from "../../../../durable-objects/protocol/rest";
import { probeProvider } from "../../../../durable-objects/providers/health-probe";
import { ProviderIdSchema } from "../../../../durable-objects/protocol/provider-ids";
import {
  configuredProviders,
  DEFAULT_MODELS,
  MODELS,
  PROVIDER_IDS as REGISTERED_IDS,
  providerConfigFromEnv,
} from "../../../../durable-objects/providers/registry";
import { recentChecks, recordCheck } from "../../../../shared/db/provider-checks";
import type { ProviderId } from "../../../../durable-objects/providers/types";
import type { AppEnv } from "../app-types";
import { isOfficialOpenAI } from "../../../../durable-objects/providers/openai/api-choice";
import type { ProviderConfig } from "../../../../durable-objects/providers/types";

/** OpenAI's own API; a base URL that is not a URL is the adapter's to report, not this list's. */
function officialOpenAI(config: ProviderConfig): boolean {
  try {
    return isOfficialOpenAI(config);
  } catch {
    return true;
  }
}

export { ProviderIdSchema };
// The protocol's list and the providers' own are the same, checked both ways.
export const PROVIDER_IDS = ProviderIdSchema.options satisfies readonly ProviderId[];
REGISTERED_IDS satisfies readonly (typeof PROVIDER_IDS)[number][];

export const NO_PROVIDER_HINT =
  "No model provider is configured. Put ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY or " +
  "OLLAMA_BASE_URL in .dev.vars (see .dev.vars.example) and restart `npm start`.";

export const providerRoutes = new Hono<AppEnv>()
  .get("/", (c) => {
    const configured = new Set(configuredProviders(c.env));
    const openai = providerConfigFromEnv(c.env, "openai");
    const providers: ProviderInfo[] = PROVIDER_IDS.map((id) => ({
      id,
      configured: configured.has(id),
      defaultModel: DEFAULT_MODELS[id],
      models: MODELS[id],
      ...(id === "openai" && openai && { compatibleServer: !officialOpenAI(openai) }),
    }));
    return c.json({ providers, ...(configured.size === 0 && { hint: NO_PROVIDER_HINT }) });
  })
  // Checks every configured provider now (at once), and reports it with the latest checks.
  .get("/health", async (c) => {
    const db = c.get("db");
    const providers = await Promise.all(
      configuredProviders(c.env).map(async (id) => {
        const probe = await probeProvider(id, providerConfigFromEnv(c.env, id)!);
        await recordCheck(db, id, { reachable: probe.reachable, latencyMs: probe.latencyMs });
        return { id, ...probe, recent: await recentChecks(db, id) };
      }),
    );
    return c.json({
      providers,
      ...(providers.length === 0 && { hint: NO_PROVIDER_HINT }),
    } satisfies ProvidersHealth);
  });
