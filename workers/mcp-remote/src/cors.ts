// CORS for the browser origins the guard lets through (ALLOWED_ORIGINS, e.g. the MCP Inspector
// connecting directly): without these headers a browser sends no POST after its preflight and
// lets the page read neither the answer nor the session id.
const ALLOW_HEADERS = [
  "authorization",
  "content-type",
  "accept",
  "mcp-protocol-version",
  "mcp-session-id",
  "last-event-id",
].join(", ");
const EXPOSE_HEADERS = ["mcp-session-id", "mcp-protocol-version", "www-authenticate"].join(", ");

/** The answer to a preflight from an origin the guard accepted (no token: browsers send none). */
export function preflight(origin: string): Response {
  return new Response(null, {
    status: 204,
    headers: {
      "access-control-allow-origin": origin,
      "access-control-allow-methods": "POST",
      "access-control-allow-headers": ALLOW_HEADERS,
      "access-control-max-age": "600",
      vary: "Origin",
    },
  });
}

/** `response` readable by a page at `origin` (one the guard accepted), or as is without one. */
export function withCors(response: Response, origin: string | null): Response {
  if (!origin) return response;
  const headers = new Headers(response.headers);
  headers.set("access-control-allow-origin", origin);
  headers.set("access-control-expose-headers", EXPOSE_HEADERS);
  headers.append("vary", "Origin");
  return new Response(response.body, { status: response.status, headers });
}
