// How /v1 answers a turn that failed before any of its answer was sent (a request without
// `stream`): a status that says what went wrong (README.md, "From OpenAI-compatible clients",
// lists them), and always `x-should-retry: false`. By then the message and its failed answer are
// stored and the conversation has retried the provider, so an SDK retrying on its own (the openai
// and anthropic SDKs retry 429 and 5xx unless told not to) would only store the message again
// with each try. A provider's Retry-After, when it gave one, is passed on.
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ErrorInfo } from "../../../../durable-objects/protocol/wire";
import { ApiError, type ApiErrorCode } from "../http/errors";

/** The header Stainless-generated SDKs (openai, anthropic) obey over their own retry rules. */
export const DO_NOT_RETRY = { "x-should-retry": "false" };

/**
 * The turn_failed codes with a closer status than 502. Every other code is 502 upstream_failed:
 * server_error, network, bad_request and authentication (the provider refused the request or the
 * operator's key, not the caller's token), restarted, unknown, and codes added later.
 */
const ANSWERS: Record<string, { status: ContentfulStatusCode; code: ApiErrorCode }> = {
  // The provider is rate limiting the operator's key.
  rate_limit: { status: 429, code: "rate_limited" },
  overloaded: { status: 503, code: "upstream_failed" },
  // As OpenAI answers a prompt that does not fit: the conversation is too long for the model.
  context_too_long: { status: 400, code: "bad_request" },
  // The conversation's token budget cannot hold one model call: the caller has to raise it.
  budget_too_small: { status: 400, code: "bad_request" },
  // The conversation's provider has no key here: the operator has to set one.
  not_configured: { status: 503, code: "not_configured" },
  internal: { status: 500, code: "internal" },
};

export function turnFailure(error: ErrorInfo): ApiError {
  const answer = ANSWERS[error.code] ?? { status: 502, code: "upstream_failed" };
  const headers =
    error.retryAfterSeconds !== undefined
      ? { ...DO_NOT_RETRY, "retry-after": String(error.retryAfterSeconds) }
      : DO_NOT_RETRY;
  return new ApiError(answer.status, answer.code, error.message, undefined, headers);
}
