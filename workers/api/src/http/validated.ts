// Queries and headers checked by zod in a middleware the OpenAPI document reads (hono-openapi's
// validator): a route names its schema once, takes the parsed values from `c.req.valid(…)`, and
// the document lists each field as a parameter. One definition, so the two cannot drift apart.
import type { MiddlewareHandler } from "hono";
import { resolver, uniqueSymbol, validator } from "hono-openapi";
import type { z } from "zod";
import { validationError } from "./errors";

type Failure = { success: false; error: Parameters<typeof validationError>[1] };

/** Refuses a request whose `where` does not fit: 400 validation_failed, as every other input. */
const refuse =
  (where: string) =>
  (result: { success: true } | Failure): void => {
    if (!result.success) throw validationError(where, result.error);
  };

/** The route's query, parsed by `schema` before the handler runs. */
export const validQuery = <T extends z.ZodType>(schema: T) =>
  validator("query", schema, refuse("query"));

/** The route's request headers (names lower-case, as HTTP/2 sends them), parsed by `schema`. */
export const validHeaders = <T extends z.ZodType>(schema: T) =>
  validator("header", schema, refuse("header"));

/**
 * `schema` in the document as the route's query, parsed by the route itself later: for the
 * WebSocket, which authenticates first and says a refusal on the socket, not as an HTTP answer.
 */
export const documentedQuery = (schema: z.ZodType): MiddlewareHandler =>
  Object.assign((async (_c, next) => next()) satisfies MiddlewareHandler, {
    [uniqueSymbol]: { target: "query", ...resolver(schema) },
  });
