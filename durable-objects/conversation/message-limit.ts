// Messages sent over a WebSocket count against the same per-user limit as POST /chat, so holding
// a socket open is no way around it. The answer is a frame_error in the 429's own words.
import type { Env } from "../../shared/env";
import { countHit } from "../../shared/rate-limit/count-hit";
import { RATE_LIMITS } from "../../shared/rate-limit/limits";
import { rateLimited } from "../../shared/rate-limit/rate-limited";
import type { ErrorInfo } from "../protocol/wire";

/** Counts one message of `userId`; the error to send back when they are over the limit. */
export async function overMessageLimit(env: Env, userId: string): Promise<ErrorInfo | null> {
  const hit = await countHit(env, RATE_LIMITS.message, `user:${userId}`);
  if (hit.allowed) return null;
  const error = rateLimited(hit.rule, hit.retryAfterSeconds);
  return { code: error.code, message: error.message };
}
