// `rateLimit(...)`: a per-route middleware that answers 429 with Retry-After once a caller has
// done an action too often. Keys are a user id (after requireUser) or the caller's address.
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-types";
import { countHit } from "../../../../shared/rate-limit/count-hit";
import type { RateLimitRule } from "../../../../shared/rate-limit/limits";
import { rateLimited } from "../../../../shared/rate-limit/rate-limited";

export type RateLimitKey = (c: Context<AppEnv>) => string;

/** The signed-in user: only after requireUser. */
export const byUser: RateLimitKey = (c) => `user:${c.get("user").id}`;

/** The caller's address as Cloudflare saw it; one shared key where there is none (local runs). */
export const byAddress: RateLimitKey = (c) =>
  `ip:${c.req.header("cf-connecting-ip")?.trim() || "local"}`;

/** Counts one hit for `key`; throws the 429 when the caller is over the limit. */
export async function enforceRateLimit(
  c: Context<AppEnv>,
  rule: RateLimitRule,
  key: RateLimitKey,
): Promise<void> {
  const hit = await countHit(c.env, rule, key(c));
  if (!hit.allowed) throw rateLimited(hit.rule, hit.retryAfterSeconds);
}

export function rateLimit(rule: RateLimitRule & { key: RateLimitKey }): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await enforceRateLimit(c, rule, rule.key);
    await next();
  };
}
