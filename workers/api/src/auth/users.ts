// Looking up who a bearer token or session belongs to.
import { and, eq, gt, isNull, lt, or } from "drizzle-orm";
import type { Db } from "../../../../shared/db/client";
import { apiTokens, users } from "../../../../shared/db/schema";
import { sha256Hex } from "./crypto";

export interface User {
  id: string;
  name: string;
}

/** `last_used_at` is written at most this often per token: a read stays a read. */
export const LAST_USED_RESOLUTION_MS = 60_000;

export interface TokenOwner {
  user: User;
  tokenId: string;
  /** When the token stops working (ms), or null if it never expires. */
  expiresAt: number | null;
}

/**
 * The owner of a valid, unexpired token; marks the token used (at most once a minute). The mark
 * is bookkeeping the request need not wait for: it goes to `waitUntil` (http/beside-request.ts),
 * so the request's own reads go out without a round trip behind it.
 */
export async function ownerOfToken(
  db: Db,
  token: string,
  waitUntil: (write: Promise<unknown>) => void,
  now = Date.now(),
): Promise<TokenOwner | null> {
  const hash = await sha256Hex(token);
  const rows = await db
    .select({
      id: users.id,
      name: users.name,
      tokenId: apiTokens.id,
      expiresAt: apiTokens.expiresAt,
      lastUsedAt: apiTokens.lastUsedAt,
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(
      and(
        eq(apiTokens.tokenHash, hash),
        or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, now)),
      ),
    )
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  if (row.lastUsedAt === null || row.lastUsedAt <= now - LAST_USED_RESOLUTION_MS) {
    // Conditional, so two requests in the same minute write once.
    const marked = db
      .update(apiTokens)
      .set({ lastUsedAt: now })
      .where(
        and(
          eq(apiTokens.id, row.tokenId),
          or(
            isNull(apiTokens.lastUsedAt),
            lt(apiTokens.lastUsedAt, now - LAST_USED_RESOLUTION_MS + 1),
          ),
        ),
      )
      .then(
        () => undefined,
        (err: unknown) => console.warn("could not mark an API token as used", err),
      );
    waitUntil(marked);
  }
  return { user: { id: row.id, name: row.name }, tokenId: row.tokenId, expiresAt: row.expiresAt };
}
