// Counts one hit against a limit: Cloudflare's Rate Limiting binding on a deployed worker, our
// own Durable Object counter locally, when a var overrides the limit, or when the binding fails.
import type { RateLimitVerdict } from "../../durable-objects/rate-limit/rate-limit-counter";
import { isDevelopment } from "../app-env";
import type { Env } from "../env";
import { bindingOf, type RateLimitRule, ruleInForce } from "./limits";

export interface CountedHit extends RateLimitVerdict {
  rule: RateLimitRule;
}

/** Limits whose binding failed in this isolate: said once, not on every request. */
const reportedFailures = new Set<string>();

export async function countHit(
  env: Env,
  defaults: RateLimitRule,
  key: string,
): Promise<CountedHit> {
  const rule = ruleInForce(env, defaults);
  const binding = env[bindingOf(rule.name)];
  // Cloudflare's counters know only wrangler.toml's numbers: an override needs our own counter.
  if (!rule.overridden && !isDevelopment(env) && binding) {
    try {
      const { success } = await binding.limit({ key: `${rule.name}:${key}` });
      // The binding does not say when its window ends; a whole period is never too early.
      return { allowed: success, retryAfterSeconds: rule.periodSeconds, rule };
    } catch (err) {
      if (!reportedFailures.has(rule.name)) {
        reportedFailures.add(rule.name);
        console.warn(`rate limit ${rule.name}: the binding failed, counting here instead`, err);
      }
    }
  }
  const counter = env.RATE_LIMIT_COUNTER.get(
    env.RATE_LIMIT_COUNTER.idFromName(`${rule.name}:${key}`),
  );
  return { ...(await counter.hit(rule.limit, rule.periodSeconds)), rule };
}
