// Small builders for the OpenAPI operations: answers and bodies described by our zod schemas.
import type { DescribeRouteOptions } from "hono-openapi";
import { resolver } from "hono-openapi";
import { z } from "zod";
import { MAX_JSON_BODY_BYTES } from "../http/validate";

export type Operation = DescribeRouteOptions;

/** Every error answer: {error: {code, message, details?}} (workers/api/src/http/errors.ts). */
export const ErrorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
});

export const errorAnswer = (description: string) => ({
  description,
  content: { "application/json": { schema: resolver(ErrorBody) } },
});

/** The error answers most routes share, named by status. */
export const ERRORS = {
  400: errorAnswer("The request is malformed; the message names what is wrong."),
  401: errorAnswer("No valid API token or session."),
  404: errorAnswer("Not found, or not yours."),
  429: errorAnswer("Rate limited; Retry-After says when to try again."),
} as const;

/** What parseJsonBody (http/validate.ts) refuses before it reads the body. */
export const JSON_BODY_ERRORS = {
  413: errorAnswer(
    `The body is larger than ${MAX_JSON_BODY_BYTES / 1024} KiB (payload_too_large).`,
  ),
  415: errorAnswer(
    "The body is not sent as Content-Type: application/json (unsupported_media_type).",
  ),
} as const;

// A former member is told which way they went (db/conversation-access.ts, FormerMemberError), with
// the close reason their WebSocket gets.
const FORMER_MEMBER_REASON = "`details.reason` is `left` or `access revoked`";

/** A member whose role falls short or a former member (db/conversation-access.ts), or a cookie from another site. */
export const FORBIDDEN = {
  403: errorAnswer(
    `Your role in this shared conversation does not allow it, or you left it or its owner stopped sharing it with you (forbidden; ${FORMER_MEMBER_REASON}), or a signed-in browser's request came from another site (forbidden_origin).`,
  ),
} as const;

/** A read of one conversation (or of its artifact): refused with 403 only to a former member. */
export const FORBIDDEN_FORMER_MEMBER = {
  403: errorAnswer(
    `You left this shared conversation, or its owner stopped sharing it with you (forbidden; ${FORMER_MEMBER_REASON}).`,
  ),
} as const;

export const conflict = (why: string) => ({ 409: errorAnswer(`${why} (conflict)`) });

export const json = (schema: z.ZodType, description = "OK") => ({
  description,
  content: { "application/json": { schema: resolver(schema) } },
});

export const noContent = { description: "Done; no body." } as const;

export const eventStream = (description: string) => ({
  description,
  content: {
    "text/event-stream": {
      schema: {
        type: "string" as const,
        description:
          "Server-Sent Events: `id: <seq>`, `event: <type>`, `data: <ServerEvent JSON>` (see components.schemas.ServerEvent).",
      },
    },
  },
});

type RequestBody = NonNullable<Operation["requestBody"]>;

/**
 * A JSON request body described by the zod schema the route parses it with. Converted to JSON
 * Schema when the document is first asked for, not when the worker starts (OPERATIONS is built
 * at start-up; most isolates never serve the document).
 */
export const body = (schema: z.ZodType): RequestBody => {
  let jsonSchema: unknown;
  const media = {
    get schema() {
      jsonSchema ??= z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
      return jsonSchema;
    },
  };
  // zod writes JSON Schema 2020-12 (what OpenAPI 3.1 uses); openapi-types types `type` narrower.
  return { required: true, content: { "application/json": media } } as unknown as RequestBody;
};

/** A list answer: {items: T[]}. */
export const items = (schema: z.ZodType, description = "OK") =>
  json(z.object({ items: z.array(schema) }), description);
