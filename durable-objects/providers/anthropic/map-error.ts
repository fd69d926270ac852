// @anthropic-ai/sdk errors → typed provider errors. An `error` event inside a stream that began
// with HTTP 200 arrives as an APIError without a status; its `type` says what happened.
import { APIConnectionError, APIError, APIUserAbortError } from "@anthropic-ai/sdk/core/error";
import {
  abortedError,
  connectionError,
  type ErrorContext,
  isAbort,
  providerError,
  statusError,
} from "../errors";
import type { ProviderErrorInfo } from "../types";

export const ANTHROPIC: ErrorContext = { provider: "Anthropic", credentials: "ANTHROPIC_API_KEY" };

export function mapAnthropicError(err: unknown, signal?: AbortSignal): ProviderErrorInfo {
  if (err instanceof APIUserAbortError || isAbort(err, signal)) return abortedError();
  if (err instanceof APIConnectionError) return connectionError("Anthropic", err);
  if (err instanceof APIError) {
    const message = err.apiMessage ?? err.message;
    if (err.status !== undefined)
      return statusError(err.status, message, ANTHROPIC, err.headers ?? null);
    const said = ` Anthropic said: ${message}`;
    switch (err.type) {
      case "overloaded_error":
        return providerError("overloaded", `Anthropic is overloaded right now.${said}`);
      case "rate_limit_error":
        return providerError("rate_limit", `Anthropic is rate limiting this key.${said}`);
      case "invalid_request_error":
        return statusError(400, message, ANTHROPIC);
      default:
        return providerError("server_error", `Anthropic's stream failed.${said}`);
    }
  }
  // A body that breaks off mid-stream surfaces as a plain error from the runtime's fetch.
  return connectionError("Anthropic", err);
}
