// A worker whose wrangler.toml lacks a binding the API uses fails deep inside a request with a
// TypeError that names nothing ("Invalid value used as weak map key" for a missing D1); one with
// a misspelt APP_ENV runs as deployed and asks for secrets a local run never needs. Either
// refuses every request instead, and says what to fix where.
import type { MiddlewareHandler } from "hono";
import { isDevelopment } from "../../../../shared/app-env";
import type { Env } from "../../../../shared/env";
import type { AppEnv } from "../app-types";
import { ApiError, errorResponse } from "../http/errors";

/** Each binding the API worker and its Durable Objects read, with the wrangler.toml table that declares it. */
export const REQUIRED_BINDINGS = {
  DB: "[[d1_databases]]",
  ARTIFACTS: "[[r2_buckets]]",
  CONVERSATION: "[[durable_objects.bindings]]",
  RATE_LIMIT_COUNTER: "[[durable_objects.bindings]]",
  MCP_REMOTE: "[[services]]",
  PDF_TEXT: "[[services]]",
} as const satisfies Partial<Record<keyof Env, string>>;

type BindingName = keyof typeof REQUIRED_BINDINGS;

export function missingBindings(env: Env): BindingName[] {
  // The generated types promise every binding; a hand-edited wrangler.toml can still drop one.
  const present = env as unknown as Partial<Record<BindingName, unknown>>;
  return (Object.keys(REQUIRED_BINDINGS) as BindingName[]).filter((name) => present[name] == null);
}

/** What the operator reads on the console (`wrangler dev`) or in the logs (`wrangler tail`). */
export function missingBindingsLog(env: Env, missing: BindingName[]): string {
  const deployed = env.APP_ENV === "production" || env.APP_ENV === "staging";
  const prefix = deployed ? `env.${env.APP_ENV}.` : "";
  const each = missing.map(
    (name) => `${name} (${REQUIRED_BINDINGS[name].replace("[[", `[[${prefix}`)})`,
  );
  return (
    `Refusing every request: this worker has no binding ${each.join(", ")}. Declare it in ` +
    `wrangler.toml as the repository's wrangler.toml does` +
    (deployed ? " (an environment inherits no bindings from the top level)" : "") +
    ", then restart or deploy again (see README, Deploying)."
  );
}

/** Said once per isolate and set of missing names, not on every request. */
const reported = new Set<string>();

const APP_ENVS = ["development", "staging", "production"];

/** An APP_ENV outside the three (a typo, say) would run as deployed, refusing for the wrong reason. */
export function unknownAppEnvLog(env: Env): string | null {
  if (APP_ENVS.includes(env.APP_ENV)) return null;
  return (
    `Refusing every request: APP_ENV is ${JSON.stringify(String(env.APP_ENV ?? "").slice(0, 40))}; ` +
    `set it to "development" (local), "staging" or "production" in wrangler.toml's [vars] of ` +
    "that environment (see README, Deploying)."
  );
}

export const requireBindings: MiddlewareHandler<AppEnv> = async (c, next) => {
  const missing = missingBindings(c.env);
  const log =
    unknownAppEnvLog(c.env) ?? (missing.length > 0 ? missingBindingsLog(c.env, missing) : null);
  if (log === null) return next();
  if (!reported.has(log)) {
    reported.add(log);
    console.error(log);
  }
  // Locally the person reading the answer is the operator: tell them what to fix.
  const message = isDevelopment(c.env)
    ? log
    : "This service is not fully set up: its operator has to fix its configuration. Try again later.";
  return errorResponse(c, new ApiError(503, "not_configured", message));
};
