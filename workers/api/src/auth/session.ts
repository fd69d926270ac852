// Browser sessions: a D1 row per sign-in, named by an HMAC-signed HttpOnly cookie. The row is
// what makes the cookie valid: signing out, revoking the token that opened it, or "sign out
// everywhere" deletes it, and the very next request with the old cookie gets 401.
import { and, eq, gt, isNull, or } from "drizzle-orm";
import type { Env } from "../../../../shared/env";
import type { Db } from "../../../../shared/db/client";
import { apiTokens, sessions, users } from "../../../../shared/db/schema";
import { signClaims, verifyClaims } from "./crypto";
import { signingSecret } from "./secrets";
import type { TokenOwner, User } from "./users";

export const SESSION_COOKIE = "session";
export const SESSION_TTL_MS = 7 * 24 * 3600 * 1000;

type SecretEnv = Pick<Env, "APP_ENV" | "SIGNING_SECRET">;

/** Who a request speaks for, and with which credential (the ones revocation deletes). */
export interface Credential {
  user: User;
  tokenId: string;
  /** Set when a browser session cookie authenticated the request. */
  sessionId?: string;
}

export interface NewSession {
  cookie: string;
  expiresAt: number;
}

/** Stores a session opened with `owner`'s token; it ends no later than the token does. */
export async function createSession(
  env: SecretEnv,
  requestUrl: string,
  db: Db,
  owner: TokenOwner,
  now = Date.now(),
): Promise<NewSession> {
  const secret = signingSecret(env, requestUrl);
  const id = crypto.randomUUID();
  const expiresAt = Math.min(now + SESSION_TTL_MS, owner.expiresAt ?? Infinity);
  await db
    .insert(sessions)
    .values({ id, userId: owner.user.id, tokenId: owner.tokenId, expiresAt });
  return {
    cookie: await signClaims(secret, { kind: "session", sid: id, exp: expiresAt }),
    expiresAt,
  };
}

/** The session id a cookie names, if its signature holds and it has not expired. */
export async function sessionIdOf(
  env: SecretEnv,
  requestUrl: string,
  cookie: string,
): Promise<string | null> {
  const claims = await verifyClaims(signingSecret(env, requestUrl), cookie);
  return claims?.kind === "session" && typeof claims.sid === "string" ? claims.sid : null;
}

/** The credential of a live session: the row exists, and so does its unexpired token. */
export async function liveSession(
  db: Db,
  sessionId: string,
  now = Date.now(),
): Promise<Credential | null> {
  const rows = await db
    .select({ id: users.id, name: users.name, tokenId: sessions.tokenId })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(apiTokens, eq(apiTokens.id, sessions.tokenId))
    .where(
      and(
        eq(sessions.id, sessionId),
        gt(sessions.expiresAt, now),
        or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, now)),
      ),
    )
    .limit(1);
  const row = rows[0];
  return row ? { user: { id: row.id, name: row.name }, tokenId: row.tokenId, sessionId } : null;
}

/** Reads a session cookie all the way: signature, then the row. */
export async function readSession(
  env: SecretEnv,
  requestUrl: string,
  db: Db,
  cookie: string,
): Promise<Credential | null> {
  const sid = await sessionIdOf(env, requestUrl, cookie);
  return sid ? liveSession(db, sid) : null;
}

export async function endSession(db: Db, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** "Sign out everywhere": every browser session of the user ends; API tokens stay. */
export async function endAllSessions(db: Db, userId: string): Promise<number> {
  const gone = await db
    .delete(sessions)
    .where(eq(sessions.userId, userId))
    .returning({ id: sessions.id });
  return gone.length;
}
