// Typed API errors. Every error leaves the worker as {error: {code, message, details?}}.
import type { Context } from "hono";

export { ApiError, type ApiErrorCode } from "../../../../shared/api-error";
import { ApiError } from "../../../../shared/api-error";
import { openAiErrorFields } from "../openai/error-shape";

export const notFound = (what: string) => new ApiError(404, "not_found", `${what} not found.`);

/** A validation issue as zod and Standard Schema (hono-openapi's validator) report it. */
interface Issue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

export function validationError(where: string, issues: readonly Issue[]): ApiError {
  const details = issues.map((i) => ({
    path:
      (i.path ?? []).map((p) => String(typeof p === "object" ? p.key : p)).join(".") || "(root)",
    message: i.message,
  }));
  const first = details[0];
  const summary = first ? `${first.path}: ${first.message}` : "invalid input";
  return new ApiError(400, "validation_failed", sentence(`Invalid ${where}: ${summary}`), details);
}

/** `text` ending with exactly one period: schemas' own messages often end with one already. */
const sentence = (text: string) => `${text.replace(/[.\s]+$/, "")}.`;

export function errorResponse(c: Context, err: unknown): Response {
  // The OpenAI-compatible routes add OpenAI's own fields (openai/error-shape.ts).
  const openAi = c.req.path.startsWith("/v1/");
  if (err instanceof ApiError) {
    return c.json(
      {
        error: {
          code: err.code,
          message: err.message,
          ...(err.details ? { details: err.details } : {}),
          ...(openAi && openAiErrorFields(err.status, err.details)),
        },
      },
      err.status,
      err.headers,
    );
  }
  console.error("unhandled error", err);
  return c.json(
    {
      error: {
        code: "internal",
        message: "Something went wrong on our side.",
        ...(openAi && openAiErrorFields(500, undefined)),
      },
    },
    500,
  );
}
