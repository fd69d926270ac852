// Looking up who a bearer token or session belongs to.
import { and, eq, gt, isNull, or } from "drizzle-orm";
import type { Db } from "../db/client";
import { apiTokens, users } from "../db/schema";
import { sha256Hex } from "./crypto";

export interface User {
  id: string;
  name: string;
}

export async function userForToken(db: Db, token: string, now = Date.now()): Promise<User | null> {
  const hash = await sha256Hex(token);
  const rows = await db
    .select({ id: users.id, name: users.name })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(
      and(
        eq(apiTokens.tokenHash, hash),
        or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, now)),
      ),
    )
    .limit(1);
  return rows[0] ?? null;
}

export async function userById(db: Db, id: string): Promise<User | null> {
  const rows = await db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  return rows[0] ?? null;
}
