// The 429 a caller gets once over a limit, in the same words over HTTP and over a WebSocket.
import { ApiError } from "../api-error";
import type { RateLimitRule } from "./limits";

export function rateLimited(rule: RateLimitRule, retryAfterSeconds: number): ApiError {
  const window = rule.periodSeconds === 60 ? "a minute" : `per ${rule.periodSeconds} s`;
  return new ApiError(
    429,
    "rate_limited",
    `Too many ${rule.what}: at most ${rule.limit} ${window}. Try again in ${retryAfterSeconds} s.`,
    undefined,
    { "retry-after": String(retryAfterSeconds) },
  );
}
