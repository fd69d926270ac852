// Retries a model call on errors that retrying helps, before anything reached the consumer:
// backoff min(1000·2^(n-1), 5000) ms (or the provider's Retry-After), at most 3 tries, and a
// calmer request on retries (temperature ×0.8, max tokens ≤ 2000).
import type { ModelProvider, ModelRequest, StreamEvent } from "./types";

export const MAX_TRIES = 3;
export const backoffMs = (attempt: number) => Math.min(1000 * 2 ** (attempt - 1), 5000);

export interface RetryOptions {
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  onRetry?: (attempt: number, delayMs: number, code: string) => void;
}

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(t);
      resolve();
    });
  });

export function retryRequest(request: ModelRequest): ModelRequest {
  return {
    ...request,
    ...(request.temperature !== undefined && { temperature: request.temperature * 0.8 }),
    maxTokens: Math.min(request.maxTokens ?? 2000, 2000),
  };
}

export async function* streamWithRetries(
  provider: ModelProvider,
  request: ModelRequest,
  options: RetryOptions = {},
): AsyncIterable<StreamEvent> {
  const sleep = options.sleep ?? defaultSleep;
  let current = request;
  for (let attempt = 1; ; attempt++) {
    let delivered = false;
    let failure: Extract<StreamEvent, { type: "error" }> | null = null;
    for await (const event of provider.stream(current)) {
      if (event.type === "error") {
        failure = event;
        break;
      }
      if (
        event.type === "text_delta" ||
        event.type === "reasoning_delta" ||
        event.type === "tool_call"
      )
        delivered = true;
      yield event;
    }
    if (!failure) return;
    const retry =
      failure.error.retryable && !delivered && attempt < MAX_TRIES && !request.signal?.aborted;
    if (!retry) {
      yield failure;
      return;
    }
    const delay = Math.max(backoffMs(attempt), failure.error.retryAfterMs ?? 0);
    options.onRetry?.(attempt, delay, failure.error.code);
    await sleep(delay, request.signal);
    current = retryRequest(request);
  }
}
