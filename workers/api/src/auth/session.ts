// Browser sessions (an HttpOnly cookie) and short-lived WebSocket tickets, both HMAC-signed.
import type { Env } from "../env";
import { signClaims, verifyClaims } from "./crypto";
import { signingSecret } from "./secrets";

export const SESSION_COOKIE = "session";
export const SESSION_TTL_MS = 7 * 24 * 3600 * 1000;
export const TICKET_TTL_MS = 60 * 1000;

type SecretEnv = Pick<Env, "APP_ENV" | "SIGNING_SECRET">;

export const createSession = (env: SecretEnv, userId: string, now = Date.now()) =>
  signClaims(signingSecret(env), { kind: "session", uid: userId, exp: now + SESSION_TTL_MS });

export async function readSession(env: SecretEnv, value: string): Promise<string | null> {
  const claims = await verifyClaims(signingSecret(env), value);
  return claims?.kind === "session" && typeof claims.uid === "string" ? claims.uid : null;
}

export const createTicket = (
  env: SecretEnv,
  userId: string,
  conversationId: string,
  now = Date.now(),
) =>
  signClaims(signingSecret(env), {
    kind: "ws",
    uid: userId,
    cid: conversationId,
    exp: now + TICKET_TTL_MS,
  });

/** The user id if the ticket is valid for this conversation. */
export async function readTicket(
  env: SecretEnv,
  ticket: string,
  conversationId: string,
): Promise<string | null> {
  const claims = await verifyClaims(signingSecret(env), ticket);
  return claims?.kind === "ws" && claims.cid === conversationId && typeof claims.uid === "string"
    ? claims.uid
    : null;
}
