// Typed provider errors: a stable code, a message a person can act on, and whether a retry helps.
import type { ProviderErrorCode, ProviderErrorInfo } from "./types";

const RETRYABLE: ReadonlySet<ProviderErrorCode> = new Set([
  "rate_limit",
  "overloaded",
  "server_error",
  "network",
]);

export function providerError(
  code: ProviderErrorCode,
  message: string,
  extra: { status?: number; retryAfterMs?: number } = {},
): ProviderErrorInfo {
  return { code, message, retryable: RETRYABLE.has(code), ...extra };
}

/** Retry-After in seconds or as an HTTP date, in milliseconds. */
export function parseRetryAfter(headers: Headers | undefined | null): number | undefined {
  const value = headers?.get("retry-after-ms") ?? null;
  if (value && Number.isFinite(Number(value))) return Number(value);
  const after = headers?.get("retry-after");
  if (!after) return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Maps an HTTP status (and the provider's own message) to a typed error. */
export function errorFromStatus(
  status: number,
  message: string,
  keyName: string,
  headers?: Headers | null,
): ProviderErrorInfo {
  const text = message || `HTTP ${status}`;
  if (status === 401 || status === 403) {
    return providerError(
      "authentication",
      `The provider refused the credentials (${status}). Check ${keyName}. ${text}`,
      { status },
    );
  }
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(headers);
    return providerError("rate_limit", `Rate limited by the provider. ${text}`, {
      status,
      ...(retryAfterMs !== undefined && { retryAfterMs }),
    });
  }
  if (status === 529 || status === 503)
    return providerError("overloaded", `The provider is overloaded. ${text}`, { status });
  if (status >= 500)
    return providerError("server_error", `The provider had an error (${status}). ${text}`, {
      status,
    });
  if (status === 413 || /context|too long|maximum.*tokens|prompt is too long/i.test(text)) {
    return providerError(
      "context_too_long",
      `The conversation is too long for this model. ${text}`,
      { status },
    );
  }
  return providerError("bad_request", `The provider rejected the request (${status}). ${text}`, {
    status,
  });
}

export function isAbort(err: unknown, signal?: AbortSignal): boolean {
  return (
    signal?.aborted === true ||
    (err instanceof Error && (err.name === "AbortError" || /abort/i.test(err.constructor.name)))
  );
}

export const abortedError = () => providerError("aborted", "The request was cancelled.");
export const networkError = (err: unknown) =>
  providerError(
    "network",
    `Could not reach the provider: ${err instanceof Error ? err.message : String(err)}`,
  );
