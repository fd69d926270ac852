// Typed provider errors: a stable code, a message a person can act on, and whether a retry helps.
// Each adapter's map-error.ts turns its SDK's errors into these; the shared rules live here.
import type { ProviderErrorCode, ProviderErrorInfo, StreamEvent } from "./types";

const RETRYABLE: ReadonlySet<ProviderErrorCode> = new Set([
  "rate_limit",
  "overloaded",
  "server_error",
  "network",
]);

export function providerError(
  code: ProviderErrorCode,
  message: string,
  extra: { status?: number; retryAfterMs?: number; retryable?: boolean } = {},
): ProviderErrorInfo {
  const { retryable = RETRYABLE.has(code), ...rest } = extra;
  return { code, message, retryable, ...rest };
}

/** `retry-after-ms`, or `Retry-After` in seconds or as an HTTP date, in milliseconds. */
export function parseRetryAfter(headers: Headers | undefined | null): number | undefined {
  const ms = headers?.get("retry-after-ms");
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const after = headers?.get("retry-after");
  if (!after) return headers ? openAIRateLimitReset(headers) : undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * OpenAI may answer a 429 without Retry-After, with the time each limit resets instead
 * (`x-ratelimit-reset-requests: 1s`, `x-ratelimit-reset-tokens: 6m0s`): the requests' limit when
 * none are left, otherwise the tokens'.
 */
function openAIRateLimitReset(headers: Headers): number | undefined {
  const kind = headers.get("x-ratelimit-remaining-requests") === "0" ? "requests" : "tokens";
  return durationMs(headers.get(`x-ratelimit-reset-${kind}`));
}

const DURATION =
  /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+(?:\.\d+)?)ms)?$/;

/** A duration as OpenAI writes it ("1h2m3.5s", "6m0s", "120ms") in milliseconds. */
function durationMs(text: string | null): number | undefined {
  const parts = text ? DURATION.exec(text.trim()) : null;
  if (!parts || !text?.trim()) return undefined;
  const [h = 0, m = 0, s = 0, ms = 0] = parts.slice(1).map((p) => Number(p ?? 0));
  return Math.round(((h * 60 + m) * 60 + s) * 1000 + ms);
}

export interface ErrorContext {
  /** How the provider is named in messages ("Anthropic", "the OpenAI-compatible endpoint"). */
  provider: string;
  /** The setting to fix when credentials are refused, e.g. `ANTHROPIC_API_KEY`. */
  credentials: string;
}

/** A request that does not fit the model's window, and what the user can do about it. */
export const TOO_LONG =
  "The conversation is too long for this model: start a new conversation, shorten the message or its files, or pick a model with a larger context window.";

// How Anthropic, OpenAI and Gemini word "the prompt does not fit" on a 400.
const CONTEXT_TOO_LONG =
  /prompt is too long|maximum context|context.?length|context window|input token count|too many (input )?tokens/i;

/** Maps an HTTP status and the provider's own message to a typed error. */
export function statusError(
  status: number,
  detail: string,
  ctx: ErrorContext,
  headers?: Headers | null,
): ProviderErrorInfo {
  const said = detail ? ` ${ctx.provider} said: ${detail}` : "";
  if (status === 401 || status === 403)
    return providerError(
      "authentication",
      `${ctx.provider} refused the credentials (HTTP ${status}). Set ${ctx.credentials} to a valid value.${said}`,
      { status },
    );
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(headers);
    return providerError("rate_limit", `${ctx.provider} is rate limiting this key.${said}`, {
      status,
      ...(retryAfterMs !== undefined && { retryAfterMs }),
    });
  }
  if (status === 503 || status === 529) {
    const retryAfterMs = parseRetryAfter(headers);
    return providerError("overloaded", `${ctx.provider} is overloaded right now.${said}`, {
      status,
      ...(retryAfterMs !== undefined && { retryAfterMs }),
    });
  }
  if (status === 408 || status === 504)
    return providerError("network", `${ctx.provider} timed out (HTTP ${status}).${said}`, {
      status,
    });
  if (status === 409 || status >= 500)
    return providerError("server_error", `${ctx.provider} had an error (HTTP ${status}).${said}`, {
      status,
    });
  if (status === 413 || CONTEXT_TOO_LONG.test(detail))
    return providerError("context_too_long", `${TOO_LONG}${said}`, { status });
  return providerError(
    "bad_request",
    `${ctx.provider} rejected the request (HTTP ${status}).${said}`,
    { status },
  );
}

export function isAbort(err: unknown, signal?: AbortSignal): boolean {
  return (
    signal?.aborted === true ||
    (err instanceof Error && (err.name === "AbortError" || /abort/i.test(err.constructor.name)))
  );
}

export const abortedError = () => providerError("aborted", "The request was cancelled.");

export const connectionError = (provider: string, err: unknown) =>
  providerError(
    "network",
    `The connection to ${provider} failed: ${err instanceof Error ? err.message : String(err)}`,
  );

/** A stream that ended without the provider's end marker: the connection was cut. */
export const truncatedError = (provider: string) =>
  providerError("network", `The connection to ${provider} closed before the answer was complete.`);

export const missingCredentials = (provider: string, setting: string) =>
  providerError(
    "authentication",
    `No credentials for ${provider}: set ${setting} (in .dev.vars locally, with \`wrangler secret put\` when deployed).`,
  );

/** A setting the provider cannot be called without; no request is sent. */
export const missingSetting = (provider: string, setting: string, what: string) =>
  providerError(
    "not_configured",
    `${provider} is not set up: set ${setting} to ${what} (in .dev.vars locally, with \`wrangler secret put\` when deployed).`,
  );

/** Whether a call's usage so far holds any tokens: a call cut short reports it only then. */
export const counted = (
  usage: Extract<StreamEvent, { type: "usage" }> | null,
): usage is Extract<StreamEvent, { type: "usage" }> =>
  usage !== null && usage.inputTokens + usage.outputTokens > 0;
