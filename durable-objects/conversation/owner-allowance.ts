// A shared conversation's answers are the owner's usage (a turn runs as the owner's), so a
// participant's message is refused when the owner is past the daily allowance, as well as when
// the participant is. The sender's own check stays in daily-allowance.ts.
import type { Env } from "../../shared/env";
import { type AllowanceRefusal, dailyAllowance, overDailyAllowance } from "./daily-allowance";

export async function ownerOverAllowance(
  env: Pick<Env, "DAILY_TOKEN_ALLOWANCE" | "DAILY_COST_ALLOWANCE_USD" | "DB">,
  ownerOf: () => Promise<string>,
  senderId: string,
): Promise<AllowanceRefusal | null> {
  const allowance = dailyAllowance(env);
  if (allowance.tokens === undefined && allowance.costUsd === undefined) return null;
  const ownerId = await ownerOf();
  if (ownerId === senderId) return null;
  const refused = await overDailyAllowance(env, ownerId);
  if (!refused) return null;
  return {
    ...refused,
    error: {
      code: refused.error.code,
      message:
        "The owner of this conversation has used today's allowance, which its answers count against. New messages are accepted again at 00:00 UTC; the operator can raise the allowance.",
    },
  };
}
