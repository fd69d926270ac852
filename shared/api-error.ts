// The typed error both workers and the Durable Object raise: a status, a stable code and a
// message a person can act on. workers/api/src/http/errors.ts turns it into the JSON answer.
import type { ContentfulStatusCode } from "hono/utils/http-status";

export type ApiErrorCode =
  | "bad_request"
  | "invalid_json"
  | "validation_failed"
  | "unauthorized"
  | "forbidden_origin"
  | "not_found"
  | "method_not_allowed"
  | "conflict"
  | "payload_too_large"
  | "unsupported_media_type"
  | "not_configured"
  | "upstream_failed"
  | "internal"
  | "rate_limited"
  | "quota_exceeded"
  | "forbidden"
  | "invalid_attachment";

export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ApiErrorCode,
    message: string,
    readonly details?: unknown,
    /** Headers the answer carries besides the body, e.g. Retry-After on a 429. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
  }
}
