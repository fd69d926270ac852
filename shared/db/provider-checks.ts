// The latest health checks of the model providers: each check is stored, and only the newest
// few per provider are kept (enough to show how fast the last calls were).
import { and, desc, eq, notInArray } from "drizzle-orm";
import type { Db } from "./client";
import { providerChecks } from "./schema";

export const KEPT_CHECKS = 5;

export interface StoredCheck {
  reachable: boolean;
  latencyMs: number;
  checkedAt: number;
}

/** Stores a check and drops the provider's older ones beyond KEPT_CHECKS. */
export async function recordCheck(
  db: Db,
  provider: string,
  check: { reachable: boolean; latencyMs: number },
): Promise<void> {
  await db.insert(providerChecks).values({ id: crypto.randomUUID(), provider, ...check });
  const kept = await latestChecks(db, provider);
  const keptIds = kept.map((c) => c.id);
  await db
    .delete(providerChecks)
    .where(and(eq(providerChecks.provider, provider), notInArray(providerChecks.id, keptIds)));
}

async function latestChecks(db: Db, provider: string) {
  return db
    .select()
    .from(providerChecks)
    .where(eq(providerChecks.provider, provider))
    .orderBy(desc(providerChecks.checkedAt))
    .limit(KEPT_CHECKS);
}

/** The provider's latest checks, newest first. */
export async function recentChecks(db: Db, provider: string): Promise<StoredCheck[]> {
  return (await latestChecks(db, provider)).map((c) => ({
    reachable: c.reachable,
    latencyMs: c.latencyMs,
    checkedAt: c.checkedAt,
  }));
}
