// One cheap request to a provider to see whether it answers and how fast: its model list (for
// Ollama, `/api/tags` through the tunnel, which also says which models it offers). No model runs
// and no tokens are spent.
import { z } from "zod";
import { CREDENTIAL_SETTINGS } from "./registry";
import type { ProviderConfig, ProviderId } from "./types";

export interface ProbeResult {
  reachable: boolean;
  latencyMs: number;
  /** What went wrong, as a person can act on it (absent when reachable). */
  error?: string;
  /** Ollama: the models the tunnel offers. */
  models?: string[];
}

const NAMES: Record<ProviderId, string> = {
  anthropic: "Anthropic",
  openai: "OpenAI",
  gemini: "Gemini",
  ollama: "Ollama",
};

/** Where each provider lists its models, and how it wants to be authenticated. */
function listRequest(
  id: ProviderId,
  config: ProviderConfig,
): { url: string; headers: HeadersInit } {
  const base = (fallback: string) => (config.baseURL ?? fallback).trim().replace(/\/+$/, "");
  const key = config.apiKey ?? "";
  switch (id) {
    case "anthropic":
      return {
        url: `${base("https://api.anthropic.com")}/v1/models`,
        headers: { "x-api-key": key, "anthropic-version": "2023-06-01" },
      };
    case "openai":
      return {
        url: `${base("https://api.openai.com/v1")}/models`,
        headers: { authorization: `Bearer ${key}` },
      };
    case "gemini":
      return {
        url: `${base("https://generativelanguage.googleapis.com")}/v1beta/models`,
        headers: { "x-goog-api-key": key },
      };
    case "ollama":
      return { url: `${base("")}/api/tags`, headers: config.headers ?? {} };
  }
}

const OllamaTags = z.object({ models: z.array(z.object({ name: z.string() })) });

export async function probeProvider(
  id: ProviderId,
  config: ProviderConfig,
  timeoutMs = 5_000,
): Promise<ProbeResult> {
  const { url, headers } = listRequest(id, config);
  const name = NAMES[id];
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  let res: Response;
  try {
    res = await (config.fetch ?? fetch)(url, {
      headers,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const timedOut = err instanceof Error && err.name === "TimeoutError";
    return {
      reachable: false,
      latencyMs: elapsed(),
      error: timedOut
        ? `${name} did not answer within ${timeoutMs / 1000} s.`
        : `The connection to ${name} failed (${err instanceof Error ? err.message : String(err)})${id === "ollama" ? ": check that Ollama and the tunnel are running and that OLLAMA_BASE_URL is the tunnel's URL." : "."}`,
    };
  }
  const latencyMs = elapsed();
  if (id !== "ollama" || !res.ok) await res.body?.cancel();
  if (res.status === 401 || res.status === 403)
    return {
      reachable: false,
      latencyMs,
      error: `${name} refused the credentials (HTTP ${res.status}): check ${CREDENTIAL_SETTINGS[id]}.`,
    };
  if (!res.ok)
    return {
      reachable: false,
      latencyMs,
      error: `${name} answered HTTP ${res.status} to a request for its model list.`,
    };
  if (id !== "ollama") return { reachable: true, latencyMs };
  const tags = OllamaTags.safeParse(await res.json().catch(() => null));
  if (!tags.success)
    return {
      reachable: false,
      latencyMs,
      error: `OLLAMA_BASE_URL answered, but not with Ollama's model list (a Cloudflare Access login page does that: check ${CREDENTIAL_SETTINGS.ollama}).`,
    };
  return { reachable: true, latencyMs, models: tags.data.models.map((m) => m.name) };
}
