import { describe, expect, it } from "vitest";
import { providerError } from "./errors";
import { retryNotice, streamWithRetries } from "./retry";
import type { ModelProvider, ProviderErrorInfo, StreamEvent } from "./types";

/** A provider that fails every call with `error`, counting the calls. */
function failing(error: ProviderErrorInfo) {
  const seen = { calls: 0 };
  const provider: ModelProvider = {
    id: "anthropic",
    async *stream() {
      seen.calls += 1;
      yield { type: "error", error };
    },
  };
  return { provider, seen };
}

async function runRetried(provider: ModelProvider) {
  const delays: number[] = [];
  const retries: Array<{ attempt: number; delayMs: number; message: string }> = [];
  const events: StreamEvent[] = [];
  for await (const e of streamWithRetries(
    provider,
    { model: "m", messages: [] },
    {
      sleep: async (ms) => void delays.push(ms),
      onRetry: (attempt, delayMs, _code, error) =>
        retries.push({ attempt, delayMs, message: error.message }),
    },
  ))
    events.push(e);
  const error = events.find((e) => e.type === "error");
  return { delays, retries, error: error?.type === "error" ? error.error : undefined };
}

describe("the retry policy", () => {
  it("does not sit out a long Retry-After: it says at once when to try again", async () => {
    const { provider, seen } = failing(
      providerError("rate_limit", "Gemini is rate limiting this key. Gemini said: quota spent", {
        status: 429,
        retryAfterMs: 3_600_000,
      }),
    );
    const { delays, error } = await runRetried(provider);
    expect(seen.calls).toBe(1);
    expect(delays).toEqual([]);
    expect(error).toMatchObject({ code: "rate_limit", retryAfterMs: 3_600_000 });
    expect(error?.message).toMatch(/quota spent\. Try again in about 60 min\.$/);
  });

  it("waits a short Retry-After, tells who listens, and says when to try again once out of tries", async () => {
    const { provider, seen } = failing(
      providerError("rate_limit", "Anthropic is rate limiting this key.", {
        status: 429,
        retryAfterMs: 12_000,
      }),
    );
    const { delays, retries, error } = await runRetried(provider);
    expect(seen.calls).toBe(3);
    expect(delays).toEqual([12_000, 12_000]);
    expect(retries.map((r) => r.attempt)).toEqual([1, 2]);
    expect(retries[0]?.message).toMatch(/rate limiting/);
    expect(error?.message).toMatch(/[Tt]ried 3 times.*[Tt]ry again in about 12 s/);
  });

  it("after a server error tried three times, says to try again later", async () => {
    const { provider } = failing(providerError("server_error", "OpenAI had an error (HTTP 500)."));
    const { delays, error } = await runRetried(provider);
    expect(delays).toEqual([1000, 2000]);
    expect(error?.message).toMatch(/^OpenAI had an error \(HTTP 500\)\. [Tt]ried 3 times/);
  });

  it("adds nothing to an error a retry cannot help", async () => {
    const message = "Anthropic refused the credentials (HTTP 401). Set ANTHROPIC_API_KEY.";
    const { provider, seen } = failing(providerError("authentication", message, { status: 401 }));
    const { error } = await runRetried(provider);
    expect(seen.calls).toBe(1);
    expect(error?.message).toBe(message);
  });

  it("tells of a wait in a sentence of its own after the provider's words", () => {
    const error = providerError(
      "overloaded",
      "Anthropic is overloaded. Anthropic said: Overloaded",
    );
    expect(retryNotice(error, 1000, 1)).toBe(
      "Anthropic is overloaded. Anthropic said: Overloaded. Trying again in 1 s (try 2 of 3).",
    );
  });
});
