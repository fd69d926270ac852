// GET /api/providers/health against real endpoints: Anthropic is aimock, Ollama's
// OLLAMA_BASE_URL a closed port on 127.0.0.1 (a tunnel that is down); and GET /api/providers.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ProviderInfo } from "../../../../durable-objects/protocol/rest";
import { takesReasoningEffort } from "../../../../durable-objects/providers/effort-support";
import { ProvidersHealth } from "../../../../durable-objects/protocol/provider-health";
import { api, createUser } from "../../../../tests/support/helpers";

async function health() {
  const user = await createUser();
  const res = await api(user, "/api/providers/health");
  expect(res.status).toBe(200);
  return ProvidersHealth.parse(await res.json());
}

describe("the providers' health", () => {
  it("says which configured provider answers, how fast, and why one does not", async () => {
    const { providers } = await health();
    // Gemini has no key in tests: it is not checked (OpenAI has one, at aimock).
    expect(providers.map((p) => p.id)).toEqual(["anthropic", "openai", "ollama"]);
    const anthropic = providers.find((p) => p.id === "anthropic");
    const ollama = providers.find((p) => p.id === "ollama");
    expect(anthropic).toMatchObject({ reachable: true });
    expect(anthropic!.error).toBeUndefined();
    expect(anthropic!.latencyMs).toBeGreaterThanOrEqual(0);
    expect(ollama).toMatchObject({ reachable: false });
    expect(ollama!.error).toMatch(/^The connection to Ollama failed .*OLLAMA_BASE_URL/);
    expect(ollama!.models).toBeUndefined();
  });

  it("keeps the latest checks, newest first", async () => {
    const first = await health();
    const second = await health();
    const before = first.providers.find((p) => p.id === "anthropic")!.recent;
    const after = second.providers.find((p) => p.id === "anthropic")!.recent;
    expect(after.length).toBe(Math.min(before.length + 1, 5));
    expect(after[0]!.checkedAt).toBeGreaterThanOrEqual(before[0]!.checkedAt);
    expect(after[0]!.latencyMs).toBe(second.providers[0]!.latencyMs);
    expect(second.providers.find((p) => p.id === "ollama")!.recent[0]!.reachable).toBe(false);
  });

  it("asks who is asking", async () => {
    const res = await api(null, "/api/providers/health");
    expect(res.status).toBe(401);
  });
});

describe("the providers' list", () => {
  it("says OpenAI's base URL is a compatible server, so no reasoning effort is offered for it", async () => {
    const user = await createUser();
    const res = await api(user, "/api/providers");
    const { providers } = z.object({ providers: z.array(ProviderInfo) }).parse(await res.json());
    const openai = providers.find((p) => p.id === "openai");
    // OPENAI_BASE_URL is aimock in tests: not OpenAI's own API.
    expect(openai?.compatibleServer).toBe(true);
    expect(takesReasoningEffort("openai", "gpt-6-luna", openai)).toBe(false);
    expect(providers.find((p) => p.id === "anthropic")?.compatibleServer).toBeUndefined();
  });
});
