import type { Env } from "../env";
import { ApiError } from "../http/errors";

// Local development runs without configuration; a deployed instance must set its own secret.
const DEV_SIGNING_SECRET = "local-development-only-signing-secret";

export const isDevelopment = (env: Pick<Env, "APP_ENV">) => env.APP_ENV === "development";

export function signingSecret(env: Pick<Env, "APP_ENV" | "SIGNING_SECRET">): string {
  if (env.SIGNING_SECRET) return env.SIGNING_SECRET;
  if (isDevelopment(env)) return DEV_SIGNING_SECRET;
  throw new ApiError(
    500,
    "not_configured",
    "SIGNING_SECRET is not set. Run `wrangler secret put SIGNING_SECRET` with a long random value.",
  );
}
