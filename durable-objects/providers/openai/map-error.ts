// openai SDK errors → typed provider errors. A `data: {"error": …}` chunk inside a stream that
// began with HTTP 200 arrives as an APIError without a status.
import OpenAI from "openai";
import {
  abortedError,
  connectionError,
  type ErrorContext,
  isAbort,
  providerError,
  statusError,
  TOO_LONG,
} from "../errors";
import type { ProviderErrorInfo } from "../types";

export const openAIContext = (official: boolean): ErrorContext =>
  official
    ? { provider: "OpenAI", credentials: "OPENAI_API_KEY" }
    : {
        provider: "The OpenAI-compatible endpoint at OPENAI_BASE_URL",
        credentials: "OPENAI_API_KEY (the key that endpoint expects)",
      };

export function mapOpenAIError(
  err: unknown,
  ctx: ErrorContext,
  signal?: AbortSignal,
): ProviderErrorInfo {
  if (err instanceof OpenAI.APIUserAbortError || isAbort(err, signal)) return abortedError();
  if (err instanceof OpenAI.APIConnectionError) return connectionError(ctx.provider, err);
  if (err instanceof OpenAI.APIError) {
    const said = ` ${ctx.provider} said: ${err.message}`;
    if (err.code === "context_length_exceeded")
      return providerError("context_too_long", `${TOO_LONG}${said}`, {
        ...(err.status !== undefined && { status: err.status }),
      });
    if (err.code === "insufficient_quota")
      // A 429 that waiting does not cure: the account is out of credit.
      return providerError(
        "rate_limit",
        `The account behind ${ctx.credentials} has no quota left.${said}`,
        {
          retryable: false,
          ...(err.status !== undefined && { status: err.status }),
        },
      );
    if (err.status !== undefined)
      return statusError(err.status, err.message, ctx, err.headers ?? null);
    if (err.type === "rate_limit_exceeded" || err.code === "rate_limit_exceeded")
      return providerError("rate_limit", `${ctx.provider} is rate limiting this key.${said}`);
    return providerError("server_error", `${ctx.provider}'s stream failed.${said}`);
  }
  return connectionError(ctx.provider, err);
}

/**
 * An error the Responses API reports inside a stream that began with HTTP 200 (an `error` event,
 * or `response.failed`): its code says whether sending the request again may help.
 */
export function mapResponsesStreamError(
  error: { code?: string | null; message?: string | null },
  ctx: ErrorContext,
): ProviderErrorInfo {
  const said = ` ${ctx.provider} said: ${error.message ?? error.code ?? "no reason given"}`;
  switch (error.code) {
    case "rate_limit_exceeded":
      return providerError("rate_limit", `${ctx.provider} is rate limiting this key.${said}`);
    case "context_length_exceeded":
      return providerError("context_too_long", `${TOO_LONG}${said}`);
    case "server_error":
    case null:
    case undefined:
      return providerError("server_error", `${ctx.provider}'s stream failed.${said}`);
    default:
      // The request itself was refused (an image it cannot read, a prompt it will not answer).
      return providerError("bad_request", `${ctx.provider} refused the request.${said}`);
  }
}
