// OpenAI's error object has `type` and `param` besides `message` and `code`: clients written for
// OpenAI (and the SDKs' error classes) read them. /v1 answers carry them next to our own fields.
import type { ContentfulStatusCode } from "hono/utils/http-status";

const TYPES: Partial<Record<number, string>> = {
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  429: "rate_limit_error",
};

/** `type` and `param` for an error answered on a /v1 route. */
export function openAiErrorFields(
  status: ContentfulStatusCode,
  details: unknown,
): { type: string; param: string | null } {
  const type = TYPES[status] ?? (status >= 500 ? "server_error" : "invalid_request_error");
  // A validation error's details list each field (http/errors.ts): the first is the param.
  const first: unknown = Array.isArray(details) ? details[0] : undefined;
  const path =
    first && typeof first === "object" && "path" in first && typeof first.path === "string"
      ? first.path
      : null;
  return { type, param: path && path !== "(root)" ? path : null };
}
