// The methods the API serves at a path, for a request that used another one: a 405 with `Allow`
// tells the caller the path is right and the method is not, where a 404 sends them looking for a
// typo in the path. Read from the app's own routes, so it cannot drift from them.
import type { Hono } from "hono";
import type { AppEnv } from "../app-types";

interface RoutePattern {
  method: string;
  matches: RegExp;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `/api/conversations/:id/chat` → a RegExp for the paths it serves (our routes use only `:param`). */
const patternOf = (path: string) =>
  new RegExp(
    `^${path
      .split("/")
      .map((part) => (part === "*" ? ".*" : part.startsWith(":") ? "[^/]+" : escape(part)))
      .join("/")}/?$`,
  );

export function allowedMethodsOf(app: Hono<AppEnv>): (path: string) => string[] {
  // Built on the first miss: every route is registered by then.
  let patterns: RoutePattern[] | undefined;
  return (path) => {
    patterns ??= app.routes
      .filter((r) => r.method !== "ALL")
      .map((r) => ({ method: r.method, matches: patternOf(r.path) }));
    const methods = new Set(patterns.filter((p) => p.matches.test(path)).map((p) => p.method));
    if (methods.has("GET")) methods.add("HEAD");
    return [...methods].sort();
  };
}
