// The models /v1 offers: a model this deployment cannot run is refused up front like an unknown
// one, without a conversation left behind. The tests' deployment configures Anthropic, OpenAI
// and Ollama.
import { beforeAll, describe, expect, it } from "vitest";
import { api, createUser, errorOf, type TestUser } from "../../../../tests/support/helpers";

let user: TestUser;
beforeAll(async () => {
  user = await createUser();
});

async function conversationCount(): Promise<number> {
  const res = await api(user, "/api/conversations");
  return ((await res.json()) as { items: unknown[] }).items.length;
}

describe("a model of a provider that is not configured", () => {
  it("is refused with 404 naming the setting, and no conversation is made", async () => {
    const before = await conversationCount();
    for (const path of ["/v1/chat/completions", "/v1/responses"]) {
      const res = await api(user, path, {
        method: "POST",
        json: {
          model: "gemini/gemini-3.5-flash",
          messages: [{ role: "user", content: "hi" }],
          input: "hi",
        },
      });
      expect(res.status, path).toBe(404);
      const error = await errorOf(res);
      expect(error.code).toBe("not_found");
      expect(error.message).toMatch(/gemini provider is not configured.*GEMINI_API_KEY/);
      expect(error.message).toMatch(/GET \/v1\/models/);
    }
    expect(await conversationCount()).toBe(before);
  });
});
