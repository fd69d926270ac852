// Reaching a conversation's Durable Object, and deleting a conversation from every store.
import { getAgentByName } from "agents";
import { eq } from "drizzle-orm";
import type { Db } from "../../../shared/db/client";
import { conversations } from "../../../shared/db/schema";
import type { Env } from "../../../shared/env";

export const conversationStub = (env: Env, id: string) => getAgentByName(env.CONVERSATION, id);

/** R2 keys of a conversation's binaries all start with this prefix. */
export const r2Prefix = (conversationId: string) => `conversations/${conversationId}/`;

/** Stops the DO and wipes its storage first, so no outbox write can recreate rows afterwards. */
export async function deleteConversationEverywhere(env: Env, db: Db, id: string): Promise<void> {
  const stub = await conversationStub(env, id);
  await stub.wipe();
  let cursor: string | undefined;
  do {
    const page = await env.ARTIFACTS.list({ prefix: r2Prefix(id), ...(cursor && { cursor }) });
    if (page.objects.length > 0) await env.ARTIFACTS.delete(page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  // Messages, artifacts and graph rows go with it (ON DELETE CASCADE).
  await db.delete(conversations).where(eq(conversations.id, id));
}
