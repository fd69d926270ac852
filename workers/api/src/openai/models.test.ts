// The models /v1 offers, as the official `openai` SDK asks for them: one by id (its slash encoded
// or not), and a model this deployment cannot run refused up front like an unknown one, without
// a conversation left behind. The tests' deployment configures Anthropic, OpenAI and Ollama.
import OpenAI from "openai";
import { openAiClient } from "../../../../tests/support/openai-client";
import { beforeAll, describe, expect, it } from "vitest";
import { api, createUser, errorOf, type TestUser } from "../../../../tests/support/helpers";

let user: TestUser;
let client: OpenAI;
beforeAll(async () => {
  user = await createUser();
  client = openAiClient(user);
});

async function conversationCount(): Promise<number> {
  const res = await api(user, "/api/conversations");
  return ((await res.json()) as { items: unknown[] }).items.length;
}

describe("GET /v1/models/{id}", () => {
  it("retrieves each listed model as OpenAI's Model object", async () => {
    const thinking = await client.models.retrieve("thinking-chat");
    expect(thinking).toEqual({
      id: "thinking-chat",
      object: "model",
      created: expect.any(Number),
      owned_by: "thinking-chat",
    });
    // The SDK encodes the slash of `<provider>/<model>`; a hand-written URL may not.
    const haiku = await client.models.retrieve("anthropic/claude-haiku-4-5");
    expect(haiku).toMatchObject({ id: "anthropic/claude-haiku-4-5", owned_by: "anthropic" });
    const raw = await api(user, "/v1/models/anthropic/claude-haiku-4-5");
    expect(raw.status).toBe(200);
    expect(await raw.json()).toEqual(haiku);
  });

  it("gives 404 for an id the list does not have, saying where the list is", async () => {
    for (const id of ["gpt-4o", "gemini/gemini-3.5-flash", "anthropic/claude-nope"]) {
      const err = await client.models.retrieve(id).catch((e: unknown) => e);
      expect(err, id).toBeInstanceOf(OpenAI.NotFoundError);
      expect((err as InstanceType<typeof OpenAI.NotFoundError>).message).toMatch(
        /does not exist.*GET \/v1\/models/,
      );
    }
  });
});

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
