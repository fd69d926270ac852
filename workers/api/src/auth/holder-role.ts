// The role in a conversation of whoever a request's credential names, read beside the
// credential's own check instead of after it: the WebSocket handshake would otherwise wait for
// two D1 reads one after the other (who is this, then what may they do here). The user is found
// by the same key the credential check uses (the token's hash, the session's id), so the answer
// belongs to the user that check returns; the caller compares the two.
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import type { ConversationRole } from "../../../../durable-objects/protocol/sharing";
import { roleFromRow, roleOfHolderSql } from "../../../../shared/db/conversation-access";
import type { AppEnv } from "../app-types";
import { sha256Hex } from "./crypto";
import { bearerOf } from "./middleware";
import { SESSION_COOKIE, sessionIdOf } from "./session";

export interface HolderRole {
  userId: string;
  role: ConversationRole | null;
}

const BY_TOKEN = roleOfHolderSql("SELECT user_id FROM api_tokens WHERE token_hash = ?1");
const BY_SESSION = roleOfHolderSql("SELECT user_id FROM sessions WHERE id = ?1");

/** Null when the request carries no credential this can read ahead (the check then decides). */
export async function holderRole(
  c: Context<AppEnv>,
  conversationId: string,
): Promise<HolderRole | null> {
  const token = c.req.header("authorization") !== undefined ? bearerOf(c) : undefined;
  const cookie = token === undefined ? getCookie(c, SESSION_COOKIE) : undefined;
  const key = token
    ? await sha256Hex(token)
    : cookie
      ? await sessionIdOf(c.env, c.req.url, cookie)
      : null;
  if (!key) return null;
  const row = await c.env.DB.prepare(token ? BY_TOKEN : BY_SESSION)
    .bind(key, conversationId)
    .first<{ user_id: string; role: unknown }>();
  return row && { userId: row.user_id, role: roleFromRow(row) };
}
