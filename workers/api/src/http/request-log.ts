// Every API request gets an id (`X-Request-Id`, from Cloudflare's `cf-ray` when there is one), a
// `Server-Timing` header with the time the worker took, and one structured JSON log line:
// ids, route, status and duration, never a header value, token or message text. The line of an
// answered request is info, of a failed one (5xx) an error (LOG_LEVEL, shared/log-level.ts).
import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { writesLevel } from "../../../../shared/log-level";
import type { AppEnv } from "../app-types";

export const REQUEST_ID_HEADER = "x-request-id";

export function requestLog(now: () => number = () => performance.now()): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = now();
    const requestId = c.req.header("cf-ray") ?? crypto.randomUUID();
    await next();
    const durationMs = now() - started;
    // A WebSocket upgrade's answer comes from the Durable Object with headers that cannot change.
    if (c.res.status !== 101) {
      try {
        c.res.headers.set(REQUEST_ID_HEADER, requestId);
        c.res.headers.append("server-timing", `app;desc="API worker";dur=${durationMs.toFixed(1)}`);
      } catch {
        // Headers that cannot change (an answer passed through as it came): logged all the same.
      }
    }
    const level = c.res.status >= 500 ? "error" : "info";
    if (!writesLevel(c.env, level)) return;
    const user = c.get("user") as { id: string } | undefined;
    const conversationId = /^\/api\/conversations\/([^/]+)/.exec(c.req.path)?.[1];
    console.log(
      JSON.stringify({
        level,
        event: "request",
        requestId,
        method: c.req.method,
        // The last route that answered (`-1`): the pattern, so no id or query leaks into it.
        route: routePath(c, -1),
        status: c.res.status,
        durationMs: Math.round(durationMs * 10) / 10,
        ...(user && { userId: user.id }),
        ...(conversationId && { conversationId }),
      }),
    );
  };
}
