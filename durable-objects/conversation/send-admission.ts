// What a new message over a WebSocket must pass before it is stored: the sender's daily
// allowance, the per-user message limit, the owner's allowance (for a member's message), and
// whose it is (the author's name). None depends on another, so they go out at once: one round
// trip's wait instead of four in a row. Refusals keep their order of precedence.
import type { Env } from "../../shared/env";
import type { ChatMessage } from "../protocol/messages";
import type { ConversationRole } from "../protocol/sharing";
import type { ErrorInfo } from "../protocol/wire";
import { overDailyAllowance } from "./daily-allowance";
import { overMessageLimit } from "./message-limit";
import { ownerOverAllowance } from "./owner-allowance";

export type Admission =
  { ok: true; author: ChatMessage["author"] } | { ok: false; error: ErrorInfo };

export async function admitNewMessage(opts: {
  env: Env;
  userId: string;
  role: ConversationRole;
  ownerId: () => Promise<string>;
  authorOf: (userId: string) => Promise<ChatMessage["author"]>;
}): Promise<Admission> {
  const { env, userId } = opts;
  const [refused, limited, ownerRefused, author] = await Promise.all([
    overDailyAllowance(env, userId),
    overMessageLimit(env, userId),
    // The owner's own check is the first one.
    opts.role === "owner" ? null : ownerOverAllowance(env, opts.ownerId, userId),
    opts.authorOf(userId),
  ]);
  if (refused) return { ok: false, error: refused.error };
  if (limited) return { ok: false, error: limited };
  if (ownerRefused) return { ok: false, error: ownerRefused.error };
  return { ok: true, author };
}
