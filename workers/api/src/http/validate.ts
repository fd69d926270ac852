// zod parsing of bodies, queries and path parameters, with errors that say what is wrong.
import type { Context } from "hono";
import type { z } from "zod";
import { ApiError, validationError } from "./errors";

/** Largest JSON body accepted by the REST API, in bytes. */
export const MAX_JSON_BODY_BYTES = 256 * 1024;

export async function parseJsonBody<T extends z.ZodType>(
  c: Context,
  schema: T,
): Promise<z.infer<T>> {
  const type = c.req.header("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/json")) {
    throw new ApiError(
      415,
      "unsupported_media_type",
      "Send the body as JSON with the header Content-Type: application/json.",
    );
  }
  const declared = Number(c.req.header("content-length") ?? "0");
  if (declared > MAX_JSON_BODY_BYTES) throw tooLarge();
  const text = await c.req.text();
  if (new TextEncoder().encode(text).length > MAX_JSON_BODY_BYTES) throw tooLarge();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(400, "invalid_json", "The request body is not valid JSON.");
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError("request body", parsed.error.issues);
  return parsed.data;
}

export function parseQuery<T extends z.ZodType>(c: Context, schema: T): z.infer<T> {
  const parsed = schema.safeParse(c.req.query());
  if (!parsed.success) throw validationError("query", parsed.error.issues);
  return parsed.data;
}

export function parseParam<T extends z.ZodType>(c: Context, name: string, schema: T): z.infer<T> {
  const parsed = schema.safeParse(c.req.param(name));
  if (!parsed.success) throw validationError(`path parameter '${name}'`, parsed.error.issues);
  return parsed.data;
}

function tooLarge(): ApiError {
  return new ApiError(
    413,
    "payload_too_large",
    `The request body is larger than ${MAX_JSON_BODY_BYTES / 1024} KiB.`,
  );
}
