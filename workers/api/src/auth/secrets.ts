import type { Env } from "../../../../shared/env";
import { isDevelopment } from "../../../../shared/app-env";
import { ApiError } from "../http/errors";

// Local development runs without configuration; a deployed instance must set its own secret.
const DEV_SIGNING_SECRET = "local-development-only-signing-secret";

export { isDevelopment };

/**
 * Whether a request reached us on this machine. On Cloudflare a request is routed by its host
 * name, so a deployed worker never sees one of these (the belt to APP_ENV's braces).
 */
export function isLocalAddress(requestUrl: string): boolean {
  const host = new URL(requestUrl).hostname.toLowerCase();
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    /^127(\.\d{1,3}){3}$/.test(host) ||
    host === "0.0.0.0" ||
    host === "[::1]"
  );
}

/**
 * The key that signs cookies and tickets. The built-in development key serves only a worker with
 * APP_ENV=development reached on a local address: anyone can read it in this repository.
 */
export function signingSecret(
  env: Pick<Env, "APP_ENV" | "SIGNING_SECRET">,
  requestUrl: string,
): string {
  if (env.SIGNING_SECRET) return env.SIGNING_SECRET;
  if (isDevelopment(env) && isLocalAddress(requestUrl)) return DEV_SIGNING_SECRET;
  throw new ApiError(
    500,
    "not_configured",
    isDevelopment(env)
      ? "SIGNING_SECRET is not set, and the built-in development key only serves localhost. Set SIGNING_SECRET (in .dev.vars, or with `wrangler secret put SIGNING_SECRET`)."
      : "SIGNING_SECRET is not set. Run `wrangler secret put SIGNING_SECRET` with a long random value.",
  );
}
