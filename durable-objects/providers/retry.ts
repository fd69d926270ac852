// Retries a model call on errors that retrying helps, before anything reached the consumer:
// backoff min(1000·2^(n-1), 5000) ms (or the provider's Retry-After), at most 3 tries, and a
// calmer request on retries (temperature ×0.8, max tokens ≤ 2000). A provider that asks for a
// longer wait than MAX_RETRY_WAIT_MS (a quota spent for the hour or the day) is not waited for:
// the turn would sit silent that long. Given up, the error says when to try again.
import { abortedError } from "./errors";
import type { ModelProvider, ModelRequest, ProviderErrorInfo, StreamEvent } from "./types";

export const MAX_TRIES = 3;
/** The longest wait between tries: a turn is not left hanging longer for one model call. */
export const MAX_RETRY_WAIT_MS = 20_000;
export const backoffMs = (attempt: number) => Math.min(1000 * 2 ** (attempt - 1), 5000);

export interface RetryOptions {
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Before each wait: the attempt that failed, the wait, and its error (to tell the user). */
  onRetry?: (attempt: number, delayMs: number, code: string, error: ProviderErrorInfo) => void;
}

const wait = (ms: number) =>
  ms < 90_000 ? `${Math.max(1, Math.ceil(ms / 1000))} s` : `${Math.ceil(ms / 60_000)} min`;

/** A retryable error given up on: when to try again, and how often it was tried. */
function givenUp(error: ProviderErrorInfo, tries: number): ProviderErrorInfo {
  const tried = tries > 1 ? ` Tried ${tries} times;` : "";
  const when =
    error.retryAfterMs !== undefined
      ? `try again in about ${wait(error.retryAfterMs)}.`
      : "try again in a minute.";
  return {
    ...error,
    message: `${fullStop(error.message)}${tried} ${tried ? when : capitalised(when)}`,
  };
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A provider's own words, quoted last in a message, may end without a full stop. */
const fullStop = (message: string) => (/[.!?)]$/.test(message) ? message : `${message}.`);

/** What the user is told while a failed call waits for its next try. */
export const retryNotice = (error: ProviderErrorInfo, delayMs: number, attempt: number) =>
  `${fullStop(error.message)} Trying again in ${wait(delayMs)} (try ${attempt + 1} of ${MAX_TRIES}).`;

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
    const { error } = failure;
    const delay = Math.max(backoffMs(attempt), error.retryAfterMs ?? 0);
    const retry =
      error.retryable &&
      !delivered &&
      attempt < MAX_TRIES &&
      delay <= MAX_RETRY_WAIT_MS &&
      !request.signal?.aborted;
    if (!retry) {
      const helps = error.retryable && !delivered && !request.signal?.aborted;
      yield helps ? { type: "error", error: givenUp(error, attempt) } : failure;
      return;
    }
    options.onRetry?.(attempt, delay, error.code, error);
    await sleep(delay, request.signal);
    // Cancelled during the wait: no new request goes out, so none is paid for.
    if (request.signal?.aborted) {
      yield { type: "error", error: { ...abortedError(), unsent: true } };
      return;
    }
    current = retryRequest(request);
  }
}
