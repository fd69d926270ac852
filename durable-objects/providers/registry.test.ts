import { describe, expect, it } from "vitest";
import {
  configuredProviders,
  createProvider,
  DEFAULT_MODELS,
  MODELS,
  PROVIDER_IDS,
  providerConfigFromEnv,
} from "./registry";

describe("provider configuration from the environment", () => {
  it("configures a keyed provider only when its key is set, with its base URL when given", () => {
    expect(providerConfigFromEnv({}, "anthropic")).toBeNull();
    expect(providerConfigFromEnv({ ANTHROPIC_API_KEY: "  " }, "anthropic")).toBeNull();
    expect(providerConfigFromEnv({ OPENAI_API_KEY: "sk-1" }, "openai")).toEqual({
      apiKey: "sk-1",
    });
    expect(
      providerConfigFromEnv(
        { GEMINI_API_KEY: "g", GEMINI_BASE_URL: "http://127.0.0.1:1234" },
        "gemini",
      ),
    ).toEqual({ apiKey: "g", baseURL: "http://127.0.0.1:1234" });
    expect(
      providerConfigFromEnv({ OPENAI_API_KEY: "sk-1", OPENAI_API: " chat-completions " }, "openai"),
    ).toEqual({ apiKey: "sk-1", openaiApi: "chat-completions" });
  });

  it("configures Ollama by its base URL, with Cloudflare Access service-token headers", () => {
    expect(providerConfigFromEnv({ OLLAMA_ACCESS_CLIENT_ID: "id" }, "ollama")).toBeNull();
    expect(
      providerConfigFromEnv({ OLLAMA_BASE_URL: "https://ollama.example.com" }, "ollama"),
    ).toEqual({ baseURL: "https://ollama.example.com" });
    expect(
      providerConfigFromEnv(
        {
          OLLAMA_BASE_URL: "https://ollama.example.com",
          OLLAMA_ACCESS_CLIENT_ID: "abc.access",
          OLLAMA_ACCESS_CLIENT_SECRET: "s3cret",
        },
        "ollama",
      ),
    ).toEqual({
      baseURL: "https://ollama.example.com",
      headers: { "CF-Access-Client-Id": "abc.access", "CF-Access-Client-Secret": "s3cret" },
    });
  });

  it("lists the configured providers in a fixed order", () => {
    expect(configuredProviders({})).toEqual([]);
    expect(configuredProviders({ OLLAMA_BASE_URL: "http://x", ANTHROPIC_API_KEY: "k" })).toEqual([
      "anthropic",
      "ollama",
    ]);
  });

  it("offers each provider's default model in its model list", () => {
    for (const id of PROVIDER_IDS) expect(MODELS[id]).toContain(DEFAULT_MODELS[id]);
  });
});

describe("createProvider", () => {
  it("makes no request until the stream is read, then reads no globals but the injected fetch", async () => {
    const seen: string[] = [];
    const provider = createProvider("ollama", {
      baseURL: "http://ollama.invalid",
      fetch: async (input) => {
        seen.push(String(input instanceof Request ? input.url : input));
        throw new TypeError("fetch failed");
      },
    });
    expect(seen).toEqual([]);
    const events = [];
    for await (const e of provider.stream({ model: "m", messages: [] })) events.push(e);
    expect(seen).toEqual(["http://ollama.invalid/api/chat"]);
    expect(events).toEqual([
      { type: "error", error: expect.objectContaining({ code: "network", retryable: true }) },
    ]);
  });
});
