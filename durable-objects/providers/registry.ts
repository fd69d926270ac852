// Which providers exist, how they are configured from the environment, and lazy construction:
// an adapter (and its SDK) is imported on the first stream, so a worker that never talks to a
// model never pays for evaluating the SDKs at start-up.
import { providerError } from "./errors";
import type { ModelProvider, ModelRequest, ProviderConfig, ProviderId, StreamEvent } from "./types";

export const PROVIDER_IDS = [
  "anthropic",
  "openai",
  "gemini",
  "ollama",
] as const satisfies readonly ProviderId[];

/**
 * Defaults from the reference system, except OpenAI's and Gemini's: OpenAI's
 * `gpt-4-turbo-preview` is retired and `gpt-4o-mini`, our default after it, shuts down on
 * 2027-01-14 (OpenAI names `gpt-6-luna` to replace it); Google is retiring Gemini 2.5.
 */
export const DEFAULT_MODELS: Record<ProviderId, string> = {
  anthropic: "claude-haiku-4-5",
  openai: "gpt-6-luna",
  gemini: "gemini-3.5-flash",
  ollama: "llama3.2:latest",
};

/**
 * What the client offers in its model picker; a conversation may name any other model. Anthropic
 * retired Claude Opus 4.1 and ends Claude Sonnet 4.5 on 2026-11-30; the 4.6 models take the same
 * requests. Claude Sonnet 5.5 and Opus 5.5 always think and refuse a forced tool call: their
 * thinking is carried between steps and a refused forced call is asked again (anthropic/).
 * OpenAI shuts down gpt-5 and gpt-5-mini on 2026-12-11 and gpt-4o, gpt-4o-mini, gpt-4.1 and
 * gpt-4.1-mini on 2027-01-14; the picker offers the replacements OpenAI names for them. Google is retiring the
 * Gemini 2.5 models (reports of its dates differ, all of them by 2026-12-01): the picker offers
 * Gemini 3.5 Flash (generally available) and 3.1 Flash-Lite (stable).
 */
export const MODELS: Record<ProviderId, string[]> = {
  anthropic: [
    "claude-haiku-4-5",
    "claude-sonnet-4-6",
    "claude-opus-4-6",
    "claude-sonnet-5-5",
    "claude-opus-5-5",
  ],
  openai: ["gpt-6-luna", "gpt-6.1-terra", "gpt-6.1-sol"],
  gemini: ["gemini-3.5-flash", "gemini-3.1-flash-lite"],
  ollama: ["llama3.2:latest", "qwen3:8b", "gpt-oss:20b", "mistral:latest"],
};

export interface ProviderEnv {
  ANTHROPIC_API_KEY?: string;
  ANTHROPIC_BASE_URL?: string;
  OPENAI_API_KEY?: string;
  OPENAI_BASE_URL?: string;
  /** `responses` or `chat-completions`: which OpenAI API to call (see openai/api-choice.ts). */
  OPENAI_API?: string;
  /** `auto`, `concise` or `detailed`: ask OpenAI's reasoning models to summarise their reasoning. */
  OPENAI_REASONING_SUMMARY?: string;
  GEMINI_API_KEY?: string;
  GEMINI_BASE_URL?: string;
  OLLAMA_BASE_URL?: string;
  OLLAMA_ACCESS_CLIENT_ID?: string;
  OLLAMA_ACCESS_CLIENT_SECRET?: string;
}

/** The setting that turns each provider on, named where a provider is not configured. */
export const ENABLING_SETTINGS: Record<ProviderId, string> = {
  anthropic: "ANTHROPIC_API_KEY",
  openai: "OPENAI_API_KEY",
  gemini: "GEMINI_API_KEY",
  ollama: "OLLAMA_BASE_URL",
};

/** The setting a person has to fix when a provider refuses its credentials. */
export const CREDENTIAL_SETTINGS: Record<ProviderId, string> = {
  anthropic: "ANTHROPIC_API_KEY",
  openai: "OPENAI_API_KEY",
  gemini: "GEMINI_API_KEY",
  ollama: "OLLAMA_ACCESS_CLIENT_ID and OLLAMA_ACCESS_CLIENT_SECRET",
};

const set = (value: string | undefined): string | undefined => value?.trim() || undefined;

/** The configuration for one provider, or null when the environment does not configure it. */
export function providerConfigFromEnv(env: ProviderEnv, id: ProviderId): ProviderConfig | null {
  const keyed = (apiKey: string | undefined, baseURL: string | undefined) =>
    set(apiKey) ? { apiKey: set(apiKey), ...(set(baseURL) && { baseURL: set(baseURL) }) } : null;
  switch (id) {
    case "anthropic":
      return keyed(env.ANTHROPIC_API_KEY, env.ANTHROPIC_BASE_URL);
    case "openai": {
      const config = keyed(env.OPENAI_API_KEY, env.OPENAI_BASE_URL);
      const api = set(env.OPENAI_API);
      const summary = set(env.OPENAI_REASONING_SUMMARY);
      return (
        config && {
          ...config,
          ...(api && { openaiApi: api }),
          ...(summary && { openaiReasoningSummary: summary }),
        }
      );
    }
    case "gemini":
      return keyed(env.GEMINI_API_KEY, env.GEMINI_BASE_URL);
    case "ollama": {
      const baseURL = set(env.OLLAMA_BASE_URL);
      if (!baseURL) return null;
      const clientId = set(env.OLLAMA_ACCESS_CLIENT_ID);
      const clientSecret = set(env.OLLAMA_ACCESS_CLIENT_SECRET);
      // Cloudflare Access service token: both halves or neither (the adapter says which is missing).
      return {
        baseURL,
        ...((clientId || clientSecret) && {
          headers: {
            ...(clientId && { "CF-Access-Client-Id": clientId }),
            ...(clientSecret && { "CF-Access-Client-Secret": clientSecret }),
          },
        }),
      };
    }
  }
}

export function configuredProviders(env: ProviderEnv): ProviderId[] {
  return PROVIDER_IDS.filter((id) => providerConfigFromEnv(env, id) !== null);
}

type AdapterFactory = (config: ProviderConfig) => ModelProvider;

// Each import() is a separate chunk of work the bundler defers: the SDK module is evaluated on
// the first call of its loader, never at start-up.
const loaders: Record<ProviderId, () => Promise<AdapterFactory>> = {
  anthropic: async () => (await import("./anthropic/adapter")).createAnthropicProvider,
  openai: async () => (await import("./openai/adapter")).createOpenAIProvider,
  gemini: async () => (await import("./gemini/adapter")).createGeminiProvider,
  ollama: async () => (await import("./ollama/adapter")).createOllamaProvider,
};

export function createProvider(id: ProviderId, config: ProviderConfig): ModelProvider {
  let adapter: Promise<ModelProvider> | undefined;
  return {
    id,
    async *stream(request: ModelRequest): AsyncIterable<StreamEvent> {
      let events: AsyncIterable<StreamEvent>;
      try {
        adapter ??= loaders[id]().then((create) => create(config));
        events = (await adapter).stream(request);
      } catch (err) {
        adapter = undefined; // a failed import may succeed on the next call
        yield { type: "error", error: unexpected(id, err) };
        return;
      }
      // Adapters map every failure to an error event; this is the net under them.
      try {
        yield* events;
      } catch (err) {
        yield { type: "error", error: unexpected(id, err) };
      }
    },
  };
}

function unexpected(id: ProviderId, err: unknown) {
  return providerError(
    "unknown",
    `The ${id} adapter failed unexpectedly: ${err instanceof Error ? err.message : String(err)}`,
  );
}
