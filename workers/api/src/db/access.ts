// A user's API tokens and browser sessions: listing and revoking them.
import { and, asc, eq, gt } from "drizzle-orm";
import type { ApiTokenInfo, SessionInfo } from "../../../../durable-objects/protocol/access";
import type { Credential } from "../auth/session";
import type { Db } from "../../../../shared/db/client";
import { apiTokens, sessions } from "../../../../shared/db/schema";

export async function listTokens(db: Db, who: Credential): Promise<ApiTokenInfo[]> {
  const rows = await db
    .select({
      id: apiTokens.id,
      label: apiTokens.label,
      createdAt: apiTokens.createdAt,
      expiresAt: apiTokens.expiresAt,
      lastUsedAt: apiTokens.lastUsedAt,
    })
    .from(apiTokens)
    .where(eq(apiTokens.userId, who.user.id))
    .orderBy(asc(apiTokens.createdAt));
  return rows.map((r) => ({ ...r, current: r.id === who.tokenId }));
}

export async function listSessions(
  db: Db,
  who: Credential,
  now = Date.now(),
): Promise<SessionInfo[]> {
  const rows = await db
    .select({
      id: sessions.id,
      tokenId: sessions.tokenId,
      createdAt: sessions.createdAt,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, who.user.id), gt(sessions.expiresAt, now)))
    .orderBy(asc(sessions.createdAt));
  return rows.map((r) => ({ ...r, current: r.id === who.sessionId }));
}

/** Deletes one of the user's tokens and every session it opened; false if it is not theirs. */
export async function revokeToken(db: Db, userId: string, tokenId: string): Promise<boolean> {
  // Sessions go first and explicitly: the cascade is a second line, not the only one.
  const [, gone] = await db.batch([
    db.delete(sessions).where(and(eq(sessions.tokenId, tokenId), eq(sessions.userId, userId))),
    db
      .delete(apiTokens)
      .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, userId)))
      .returning({ id: apiTokens.id }),
  ]);
  return gone.length > 0;
}
