// The actions an attacker gains by repeating, and how often each may happen. Deployed, the same
// numbers live in wrangler.toml's [[ratelimits]] (Cloudflare's counters read only that); a
// `RATE_LIMIT_<NAME>` var ("<limit>/<seconds>") overrides one, served by our own counter.
import { z } from "zod";
import { ApiError } from "../api-error";

export type RateLimitName =
  "sign_in" | "bad_bearer" | "new_conversation" | "message" | "connection_test" | "ws_ticket";

export interface RateLimitRule {
  name: RateLimitName;
  limit: number;
  /** 10 or 60: the only periods Cloudflare's Rate Limiting binding accepts. */
  periodSeconds: number;
  /** What is counted, for the 429 message: "Too many <what> …". */
  what: string;
}

const rule = (name: RateLimitName, limit: number, what: string): RateLimitRule => ({
  name,
  limit,
  periodSeconds: 60,
  what,
});

/** Defaults: far above what a person does, well below what a script hammering us does. */
export const RATE_LIMITS = {
  signIn: rule("sign_in", 30, "sign-in attempts from this address"),
  badBearer: rule("bad_bearer", 60, "requests with an invalid token from this address"),
  newConversation: rule("new_conversation", 60, "new conversations"),
  message: rule("message", 60, "messages"),
  connectionTest: rule("connection_test", 30, "MCP connection tests"),
  wsTicket: rule("ws_ticket", 60, "WebSocket tickets"),
} satisfies Record<string, RateLimitRule>;

/** The var that overrides a limit, e.g. RATE_LIMIT_SIGN_IN = "5/60". */
export const overrideVarOf = (name: RateLimitName) =>
  `RATE_LIMIT_${name.toUpperCase()}` as `RATE_LIMIT_${Uppercase<RateLimitName>}`;

/** The Cloudflare Rate Limiting binding of a limit, e.g. SIGN_IN_LIMITER. */
export const bindingOf = (name: RateLimitName) =>
  `${name.toUpperCase()}_LIMITER` as `${Uppercase<RateLimitName>}_LIMITER`;

const Override = z
  .string()
  .regex(/^\s*\d+\s*\/\s*\d+\s*$/)
  .transform((text) => text.split("/").map((part) => Number(part.trim())) as [number, number])
  .refine(([limit, seconds]) => limit >= 1 && seconds >= 1 && seconds <= 86_400);

/** The limit in force: the var's override when set, else the default. */
export function ruleInForce(
  vars: Partial<Record<ReturnType<typeof overrideVarOf>, string>>,
  defaults: RateLimitRule,
): RateLimitRule & { overridden: boolean } {
  const variable = overrideVarOf(defaults.name);
  const raw = vars[variable];
  if (raw === undefined || raw === "") return { ...defaults, overridden: false };
  const parsed = Override.safeParse(raw);
  if (!parsed.success)
    throw new ApiError(
      500,
      "not_configured",
      `${variable} must be "<requests>/<seconds>" (for example "${defaults.limit}/${defaults.periodSeconds}"), not ${JSON.stringify(String(raw).slice(0, 40))}.`,
    );
  const [limit, periodSeconds] = parsed.data;
  return { ...defaults, limit, periodSeconds, overridden: true };
}
