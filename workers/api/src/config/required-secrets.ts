// A deployed worker without one of its secrets would run open or half-set (unsigned cookies,
// an MCP worker reachable without a token, sign-in tokens that cannot be sealed): it refuses
// every request instead, and tells the operator in its logs which secret to set.
import type { MiddlewareHandler } from "hono";
import { isDevelopment } from "../../../../shared/app-env";
import type { Env } from "../../../../shared/env";
import type { AppEnv } from "../app-types";
import { ApiError, errorResponse } from "../http/errors";

/** The secrets `[env.*.secrets] required` in wrangler.toml names; keep the two lists equal. */
export const REQUIRED_SECRETS = [
  "SIGNING_SECRET",
  "MCP_REMOTE_TOKEN",
  "GRAPH_CONTEXT_SECRET",
  "OAUTH_ENCRYPTION_KEY",
] as const satisfies readonly (keyof Env)[];

/** The required secrets this deployment lacks; none in local development, which has defaults. */
export function missingSecrets(env: Env): string[] {
  if (isDevelopment(env)) return [];
  return REQUIRED_SECRETS.filter((name) => !env[name]?.trim());
}

/** What the operator reads in the worker's logs (`wrangler tail`, the dashboard). */
export function missingSecretsLog(env: Env, missing: string[]): string {
  const flag =
    env.APP_ENV === "production" || env.APP_ENV === "staging" ? ` --env ${env.APP_ENV}` : "";
  return (
    `Refusing every request: this deployment (APP_ENV=${env.APP_ENV}) lacks the secret(s) ` +
    `${missing.join(", ")}. Set each with \`wrangler secret put <NAME>${flag}\` (see README, ` +
    `Deploying); requests are served again as soon as they are set.`
  );
}

/** Said once per isolate and set of missing names, not on every request. */
const reported = new Set<string>();

export const requireSecrets: MiddlewareHandler<AppEnv> = async (c, next) => {
  const missing = missingSecrets(c.env);
  if (missing.length === 0) return next();
  const key = `${c.env.APP_ENV}:${missing.join(",")}`;
  if (!reported.has(key)) {
    reported.add(key);
    console.error(missingSecretsLog(c.env, missing));
  }
  return errorResponse(
    c,
    new ApiError(
      503,
      "not_configured",
      "This service is not fully set up: its operator has to set a missing secret. Try again later.",
    ),
  );
};
