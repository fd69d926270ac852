// Security headers on every API answer, including the streams a Durable Object answers with.
import type { MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";

const addSecureHeaders = secureHeaders({ crossOriginResourcePolicy: "same-origin" });

// An API answer is data, never a page: opened in a tab or a frame, it may run, load and embed
// nothing. An answer with a policy of its own (an artifact's bytes) keeps it.
const API_CSP =
  "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'; sandbox";

export const secureApiHeaders: MiddlewareHandler = (c, next) => {
  // A WebSocket handshake answer carries the socket itself: it is passed on exactly as the DO made it.
  if (c.req.header("upgrade")?.toLowerCase() === "websocket") return next();
  return addSecureHeaders(c, async () => {
    await next();
    // A response fetched through a Durable Object stub has immutable headers; a copy (the body
    // still streams through) can take ours. Copying every answer keeps each route free of this.
    c.res = new Response(c.res.body, c.res);
    if (!c.res.headers.has("content-security-policy"))
      c.res.headers.set("content-security-policy", API_CSP);
  });
};
