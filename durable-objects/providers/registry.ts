// Which providers exist, how they are configured from the environment, and lazy construction:
// an adapter (and its SDK) is imported on the first stream, so a worker that never talks to a
// model never pays for loading the SDKs.
import type { ModelProvider, ModelRequest, ProviderConfig, ProviderId, StreamEvent } from "./types";

export const DEFAULT_MODELS: Record<ProviderId, string> = {
  anthropic: "claude-haiku-4-5",
  openai: "gpt-4o-mini",
  gemini: "gemini-2.5-flash",
  ollama: "llama3.2:latest",
};

export const MODELS: Record<ProviderId, string[]> = {
  anthropic: ["claude-haiku-4-5", "claude-sonnet-4-5", "claude-opus-4-1"],
  openai: ["gpt-4o-mini", "gpt-4o", "gpt-4.1", "gpt-4.1-mini", "o4-mini"],
  gemini: ["gemini-2.5-flash", "gemini-2.5-pro", "gemini-2.5-flash-lite"],
  ollama: ["llama3.2:latest", "qwen3:8b", "mistral:latest"],
};

export interface ProviderEnv {
  ANTHROPIC_API_KEY?: string;
  ANTHROPIC_BASE_URL?: string;
  OPENAI_API_KEY?: string;
  OPENAI_BASE_URL?: string;
  GEMINI_API_KEY?: string;
  GEMINI_BASE_URL?: string;
  OLLAMA_BASE_URL?: string;
  OLLAMA_ACCESS_CLIENT_ID?: string;
  OLLAMA_ACCESS_CLIENT_SECRET?: string;
}

/** The configuration for one provider, or null when the environment does not configure it. */
export function providerConfigFromEnv(env: ProviderEnv, id: ProviderId): ProviderConfig | null {
  const base = (url: string | undefined) => (url ? { baseURL: url } : {});
  switch (id) {
    case "anthropic":
      return env.ANTHROPIC_API_KEY
        ? { apiKey: env.ANTHROPIC_API_KEY, ...base(env.ANTHROPIC_BASE_URL) }
        : null;
    case "openai":
      return env.OPENAI_API_KEY
        ? { apiKey: env.OPENAI_API_KEY, ...base(env.OPENAI_BASE_URL) }
        : null;
    case "gemini":
      return env.GEMINI_API_KEY
        ? { apiKey: env.GEMINI_API_KEY, ...base(env.GEMINI_BASE_URL) }
        : null;
    case "ollama":
      if (!env.OLLAMA_BASE_URL) return null;
      return {
        baseURL: env.OLLAMA_BASE_URL,
        ...(env.OLLAMA_ACCESS_CLIENT_ID &&
          env.OLLAMA_ACCESS_CLIENT_SECRET && {
            headers: {
              "CF-Access-Client-Id": env.OLLAMA_ACCESS_CLIENT_ID,
              "CF-Access-Client-Secret": env.OLLAMA_ACCESS_CLIENT_SECRET,
            },
          }),
      };
  }
}

export function configuredProviders(env: ProviderEnv): ProviderId[] {
  return (Object.keys(DEFAULT_MODELS) as ProviderId[]).filter(
    (id) => providerConfigFromEnv(env, id) !== null,
  );
}

type AdapterFactory = (config: ProviderConfig) => ModelProvider;
const loaders: Record<ProviderId, () => Promise<AdapterFactory>> = {
  anthropic: async () => (await import("./anthropic/adapter")).createAnthropicProvider,
  openai: async () => (await import("./openai/adapter")).createOpenAIProvider,
  gemini: async () => (await import("./gemini/adapter")).createGeminiProvider,
  ollama: async () => (await import("./ollama/adapter")).createOllamaProvider,
};

export function createProvider(id: ProviderId, config: ProviderConfig): ModelProvider {
  let adapter: ModelProvider | undefined;
  return {
    id,
    async *stream(request: ModelRequest): AsyncIterable<StreamEvent> {
      adapter ??= (await loaders[id]())(config);
      yield* adapter.stream(request);
    },
  };
}
