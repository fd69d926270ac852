// The operator's daily allowance per user (DAILY_TOKEN_ALLOWANCE, DAILY_COST_ALLOWANCE_USD),
// measured on the usage rows of the current UTC day. Past it, new messages are refused before
// anything is stored: HTTP 429 for tokens, 402 for cost (with Retry-After: the next UTC day), a
// frame_error on a WebSocket. A message already stored (a resend) is never refused.
import { positiveSetting } from "../../shared/positive-setting";
import { z } from "zod";
import type { Env } from "../../shared/env";
import { userUsageSince } from "../../shared/db/usage";
import type { UsageTotals } from "../protocol/usage";
import type { ErrorInfo } from "../protocol/wire";
import { credentialFromHeader } from "./socket-credential";

const DAY_MS = 86_400_000;

export interface DailyAllowance {
  tokens?: number;
  costUsd?: number;
}

export interface AllowanceRefusal {
  status: 429 | 402;
  error: ErrorInfo;
  retryAfterSeconds: number;
}

type AllowanceEnv = Pick<Env, "DAILY_TOKEN_ALLOWANCE" | "DAILY_COST_ALLOWANCE_USD">;

export function dailyAllowance(env: AllowanceEnv): DailyAllowance {
  const tokens = positiveSetting("DAILY_TOKEN_ALLOWANCE", env.DAILY_TOKEN_ALLOWANCE);
  const costUsd = positiveSetting("DAILY_COST_ALLOWANCE_USD", env.DAILY_COST_ALLOWANCE_USD);
  return { ...(tokens && { tokens }), ...(costUsd && { costUsd }) };
}

/** Whether `used` (today's usage) is past the allowance, and the answer that says so. */
export function allowanceRefusal(
  allowance: DailyAllowance,
  used: UsageTotals,
  now: number,
): AllowanceRefusal | null {
  const retryAfterSeconds = Math.ceil((DAY_MS - (now % DAY_MS)) / 1000);
  const hours = Math.floor(retryAfterSeconds / 3600);
  const minutes = Math.ceil((retryAfterSeconds % 3600) / 60);
  const when = `New messages are accepted again at 00:00 UTC (in ${hours} h ${minutes} min); the operator can raise the allowance.`;
  const tokens = used.inputTokens + used.outputTokens;
  if (allowance.tokens !== undefined && tokens >= allowance.tokens)
    return {
      status: 429,
      retryAfterSeconds,
      error: {
        code: "daily_allowance_exceeded",
        message: `You have used today's allowance of ${allowance.tokens.toLocaleString("en-US")} tokens (${tokens.toLocaleString("en-US")} used). ${when}`,
      },
    };
  if (allowance.costUsd !== undefined && (used.costUsd ?? 0) >= allowance.costUsd)
    return {
      status: 402,
      retryAfterSeconds,
      error: {
        code: "daily_allowance_exceeded",
        message: `You have used today's allowance of $${allowance.costUsd.toFixed(2)} ($${(used.costUsd ?? 0).toFixed(2)} spent). ${when}`,
      },
    };
  return null;
}

/** Today's check for `userId`; no D1 read when the operator set no allowance. */
export async function overDailyAllowance(
  env: AllowanceEnv & Pick<Env, "DB">,
  userId: string,
  now = Date.now(),
): Promise<AllowanceRefusal | null> {
  const allowance = dailyAllowance(env);
  if (allowance.tokens === undefined && allowance.costUsd === undefined) return null;
  const used = await userUsageSince(env.DB, userId, now - (now % DAY_MS));
  return allowanceRefusal(allowance, used, now);
}

const ChatMessageId = z.object({ clientMessageId: z.string() });

/**
 * For the SSE `POST /chat` request: the refusal to answer with when its user is past the
 * allowance and its message is new; null lets the request through.
 */
export async function refuseChatOverAllowance(
  request: Request,
  env: AllowanceEnv & Pick<Env, "DB">,
  isStored: (clientMessageId: string) => boolean,
): Promise<Response | null> {
  if (request.method !== "POST" || !new URL(request.url).pathname.endsWith("/chat")) return null;
  const userId = credentialFromHeader(request.headers)?.userId;
  const body = ChatMessageId.safeParse(
    await request
      .clone()
      .json()
      .catch(() => null),
  );
  // A malformed body is refused with its own message further on.
  if (!userId || !body.success || isStored(body.data.clientMessageId)) return null;
  const refused = await overDailyAllowance(env, userId);
  if (!refused) return null;
  return Response.json(
    { error: refused.error },
    { status: refused.status, headers: { "retry-after": String(refused.retryAfterSeconds) } },
  );
}
