// Read-only links to a conversation's snapshot (share_links). The link carries a signed token
// naming its row; the row says whether it still works (revoked, expired) and what it shows.
import { and, desc, eq, isNull, max } from "drizzle-orm";
import type { ShareLink } from "../../../../durable-objects/protocol/sharing";
import type { Db } from "../../../../shared/db/client";
import { messages, shareLinks } from "../../../../shared/db/schema";
import type { Env } from "../../../../shared/env";
import { signClaims, verifyClaims } from "../auth/crypto";
import { signingSecret } from "../auth/secrets";

type SecretEnv = Pick<Env, "APP_ENV" | "SIGNING_SECRET">;
type LinkRow = typeof shareLinks.$inferSelect;

/** Tokens of links without an expiry still carry one (the signature format requires it). */
const NEVER = Date.UTC(9999, 0, 1);
const DAY_MS = 86_400_000;

async function tokenFor(env: SecretEnv, requestUrl: string, row: LinkRow): Promise<string> {
  return signClaims(signingSecret(env, requestUrl), {
    kind: "share",
    lid: row.id,
    exp: row.expiresAt ?? NEVER,
  });
}

async function toShareLink(env: SecretEnv, requestUrl: string, row: LinkRow): Promise<ShareLink> {
  const token = await tokenFor(env, requestUrl, row);
  return {
    id: row.id,
    token,
    url: `${new URL(requestUrl).origin}/shared/${token}`,
    upToSeq: row.upToSeq,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
  };
}

/** A link to the conversation as it is now: its messages so far, none sent later. */
export async function createShareLink(
  env: SecretEnv,
  db: Db,
  requestUrl: string,
  conversationId: string,
  expiresInDays?: number,
  now = Date.now(),
): Promise<ShareLink> {
  const [last] = await db
    .select({ seq: max(messages.seq) })
    .from(messages)
    .where(eq(messages.conversationId, conversationId));
  const [row] = await db
    .insert(shareLinks)
    .values({
      id: crypto.randomUUID(),
      conversationId,
      upToSeq: last?.seq ?? 0,
      createdAt: now,
      expiresAt: expiresInDays === undefined ? null : now + expiresInDays * DAY_MS,
    })
    .returning();
  return toShareLink(env, requestUrl, row!);
}

/** The conversation's links that were not revoked (expired ones included, marked by expiresAt). */
export async function listShareLinks(
  env: SecretEnv,
  db: Db,
  requestUrl: string,
  conversationId: string,
): Promise<ShareLink[]> {
  const rows = await db
    .select()
    .from(shareLinks)
    .where(and(eq(shareLinks.conversationId, conversationId), isNull(shareLinks.revokedAt)))
    .orderBy(desc(shareLinks.createdAt));
  return Promise.all(rows.map((r) => toShareLink(env, requestUrl, r)));
}

export async function revokeShareLink(
  db: Db,
  conversationId: string,
  linkId: string,
): Promise<boolean> {
  const gone = await db
    .update(shareLinks)
    .set({ revokedAt: Date.now() })
    .where(
      and(
        eq(shareLinks.id, linkId),
        eq(shareLinks.conversationId, conversationId),
        isNull(shareLinks.revokedAt),
      ),
    )
    .returning({ id: shareLinks.id });
  return gone.length > 0;
}

/** The link a token names, if its signature holds and it is neither revoked nor expired. */
export async function liveShareLink(
  env: SecretEnv,
  db: Db,
  requestUrl: string,
  token: string,
  now = Date.now(),
): Promise<LinkRow | null> {
  const claims = await verifyClaims(signingSecret(env, requestUrl), token, now);
  if (claims?.kind !== "share" || typeof claims.lid !== "string") return null;
  const [row] = await db.select().from(shareLinks).where(eq(shareLinks.id, claims.lid)).limit(1);
  if (!row || row.revokedAt !== null) return null;
  if (row.expiresAt !== null && row.expiresAt <= now) return null;
  return row;
}
