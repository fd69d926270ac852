// Typed API errors. Every error leaves the worker as {error: {code, message, details?}}.
import type { Context } from "hono";
import type { ZodError } from "zod";

export { ApiError, type ApiErrorCode } from "../../../../shared/api-error";
import { ApiError } from "../../../../shared/api-error";

export const notFound = (what: string) => new ApiError(404, "not_found", `${what} not found.`);

export function validationError(where: string, error: ZodError): ApiError {
  const details = error.issues.map((i) => ({
    path: i.path.join(".") || "(root)",
    message: i.message,
  }));
  const first = details[0];
  const summary = first ? `${first.path}: ${first.message}` : "invalid input";
  return new ApiError(400, "validation_failed", sentence(`Invalid ${where}: ${summary}`), details);
}

/** `text` ending with exactly one period: schemas' own messages often end with one already. */
const sentence = (text: string) => `${text.replace(/[.\s]+$/, "")}.`;

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
