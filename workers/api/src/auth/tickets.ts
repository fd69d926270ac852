// WebSocket tickets: for clients that cannot send a cookie or header on the upgrade. A ticket is
// HMAC-signed, names one conversation, lives 20 s and is single-use: the conversation's Durable
// Object remembers the ids it accepted until they expire.
import type { Env } from "../../../../shared/env";
import { signClaims, verifyClaims } from "./crypto";
import { signingSecret } from "./secrets";

export const TICKET_TTL_MS = 20 * 1000;

type SecretEnv = Pick<Env, "APP_ENV" | "SIGNING_SECRET">;

export interface Ticket {
  id: string;
  userId: string;
  tokenId: string;
  sessionId?: string;
  expiresAt: number;
}

export async function createTicket(
  env: SecretEnv,
  requestUrl: string,
  grant: Omit<Ticket, "id" | "expiresAt">,
  conversationId: string,
  now = Date.now(),
): Promise<{ ticket: string; expiresAt: number }> {
  const expiresAt = now + TICKET_TTL_MS;
  const ticket = await signClaims(signingSecret(env, requestUrl), {
    kind: "ws",
    jti: crypto.randomUUID(),
    uid: grant.userId,
    tid: grant.tokenId,
    ...(grant.sessionId && { sid: grant.sessionId }),
    cid: conversationId,
    exp: expiresAt,
  });
  return { ticket, expiresAt };
}

/** The ticket if its signature holds, it has not expired and it is for this conversation. */
export async function readTicket(
  env: SecretEnv,
  requestUrl: string,
  ticket: string,
  conversationId: string,
): Promise<Ticket | null> {
  const c = await verifyClaims(signingSecret(env, requestUrl), ticket);
  if (
    c?.kind !== "ws" ||
    c.cid !== conversationId ||
    typeof c.jti !== "string" ||
    typeof c.uid !== "string" ||
    typeof c.tid !== "string" ||
    typeof c.exp !== "number"
  )
    return null;
  return {
    id: c.jti,
    userId: c.uid,
    tokenId: c.tid,
    ...(typeof c.sid === "string" && { sessionId: c.sid }),
    expiresAt: c.exp,
  };
}
