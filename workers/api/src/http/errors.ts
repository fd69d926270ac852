// Typed API errors. Every error leaves the worker as {error: {code, message, details?}}.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ZodError } from "zod";

export type ApiErrorCode =
  | "bad_request"
  | "invalid_json"
  | "validation_failed"
  | "unauthorized"
  | "forbidden_origin"
  | "not_found"
  | "conflict"
  | "payload_too_large"
  | "unsupported_media_type"
  | "not_configured"
  | "upstream_failed"
  | "internal"
  | "rate_limited";

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

export const notFound = (what: string) => new ApiError(404, "not_found", `${what} not found.`);

export function validationError(where: string, error: ZodError): ApiError {
  const details = error.issues.map((i) => ({
    path: i.path.join(".") || "(root)",
    message: i.message,
  }));
  const first = details[0];
  const summary = first ? `${first.path}: ${first.message}` : "invalid input";
  return new ApiError(400, "validation_failed", `Invalid ${where}: ${summary}.`, details);
}

export function errorResponse(c: Context, err: unknown): Response {
  if (err instanceof ApiError) {
    return c.json(
      {
        error: {
          code: err.code,
          message: err.message,
          ...(err.details ? { details: err.details } : {}),
        },
      },
      err.status,
      err.headers,
    );
  }
  console.error("unhandled error", err);
  return c.json({ error: { code: "internal", message: "Something went wrong on our side." } }, 500);
}
