// How /v1 answers a turn that failed before any of its answer was sent (a request without
// `stream`): a 502 with `x-should-retry: false`. By then the message and its failed answer are
// stored and the conversation has retried the provider, so an SDK retrying on its own (the openai
// and anthropic SDKs retry 429 and 5xx unless told not to) would only store the message again
// with each try.
import type { ErrorInfo } from "../../../../durable-objects/protocol/wire";
import { ApiError } from "../http/errors";

/** The header Stainless-generated SDKs (openai, anthropic) obey over their own retry rules. */
export const DO_NOT_RETRY = { "x-should-retry": "false" };

export function turnFailure(error: ErrorInfo): ApiError {
  return new ApiError(502, "upstream_failed", error.message, undefined, DO_NOT_RETRY);
}
