// The answers a provider's model list can give, and what the health check makes of each: the
// request goes through the config's injected `fetch`, as every adapter's does.
import { describe, expect, it } from "vitest";
import { probeProvider } from "./health-probe";

/** A fetch that answers every request with `response`, and records what was asked. */
function answering(response: () => Response | Promise<Response>) {
  const asked: { url: string; headers: Headers }[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    asked.push({ url: String(input), headers: new Headers(init?.headers) });
    return response();
  }) as typeof globalThis.fetch;
  return { fetch, asked };
}

describe("a provider's health check", () => {
  it("asks Anthropic for its model list with its key, and counts a 200 as reachable", async () => {
    const { fetch, asked } = answering(() => Response.json({ data: [] }));
    const result = await probeProvider("anthropic", {
      apiKey: "k",
      baseURL: "https://anthropic.test/",
      fetch,
    });
    expect(result).toMatchObject({ reachable: true });
    expect(result.error).toBeUndefined();
    expect(asked[0]!.url).toBe("https://anthropic.test/v1/models");
    expect(asked[0]!.headers.get("x-api-key")).toBe("k");
  });

  it("names the setting to fix when the key is refused", async () => {
    const { fetch } = answering(() => new Response("no", { status: 401 }));
    const result = await probeProvider("openai", { apiKey: "bad", fetch });
    expect(result).toMatchObject({
      reachable: false,
      error: "OpenAI refused the credentials (HTTP 401): check OPENAI_API_KEY.",
    });
  });

  it("lists the models an Ollama tunnel offers, sending the Access service token", async () => {
    const { fetch, asked } = answering(() =>
      Response.json({ models: [{ name: "qwen3:8b" }, { name: "llama3.2:latest" }] }),
    );
    const result = await probeProvider("ollama", {
      baseURL: "https://ollama.test",
      headers: { "CF-Access-Client-Id": "id", "CF-Access-Client-Secret": "s" },
      fetch,
    });
    expect(result).toMatchObject({ reachable: true, models: ["qwen3:8b", "llama3.2:latest"] });
    expect(asked[0]!.url).toBe("https://ollama.test/api/tags");
    expect(asked[0]!.headers.get("CF-Access-Client-Id")).toBe("id");
  });

  it("does not count an Access login page as Ollama", async () => {
    const { fetch } = answering(
      () => new Response("<html>Sign in</html>", { headers: { "content-type": "text/html" } }),
    );
    const result = await probeProvider("ollama", { baseURL: "https://ollama.test", fetch });
    expect(result.reachable).toBe(false);
    expect(result.error).toMatch(/not with Ollama's model list .*OLLAMA_ACCESS_CLIENT_ID/);
  });

  it("gives up on a provider that does not answer in time", async () => {
    const fetch = ((_: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) =>
        init?.signal?.addEventListener("abort", () => reject(init.signal!.reason)),
      )) as typeof globalThis.fetch;
    const result = await probeProvider("gemini", { apiKey: "k", fetch }, 50);
    expect(result).toMatchObject({
      reachable: false,
      error: "Gemini did not answer within 0.05 s.",
    });
  });
});
