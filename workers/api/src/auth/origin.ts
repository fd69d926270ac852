import type { Env } from "../../../../shared/env";

/** A browser Origin we accept: the app's own origin, or one listed in ALLOWED_ORIGINS. */
export function isAllowedOrigin(
  env: Pick<Env, "ALLOWED_ORIGINS">,
  requestUrl: string,
  origin: string,
): boolean {
  if (origin === new URL(requestUrl).origin) return true;
  return env.ALLOWED_ORIGINS.split(",")
    .map((o) => o.trim())
    .filter(Boolean)
    .includes(origin);
}
