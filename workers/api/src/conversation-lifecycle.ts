// Reaching a conversation's Durable Object, and deleting a conversation from every store.
import { getAgentByName } from "agents";
import { and, eq, isNotNull } from "drizzle-orm";
import type { Db } from "../../../shared/db/client";
import { artifacts, conversations } from "../../../shared/db/schema";
import { deleteUnsharedBytes } from "./artifact-bytes";
import type { Env } from "../../../shared/env";

/** The object, started (agents' lifecycle) before the stub is handed out: for its RPC methods. */
export const conversationStub = (env: Env, id: string) => getAgentByName(env.CONVERSATION, id);

/**
 * The object for a request it answers by `fetch` (a socket, a stream): its fetch handler starts
 * it first, so this skips the separate start-up call `conversationStub` makes.
 */
export const conversationFetchStub = (env: Env, id: string) => env.CONVERSATION.getByName(id);

/** R2 keys of a conversation's binaries all start with this prefix. */
export const r2Prefix = (conversationId: string) => `conversations/${conversationId}/`;

/** Stops the DO and wipes its storage first, so no outbox write can recreate rows afterwards. */
export async function deleteConversationEverywhere(env: Env, db: Db, id: string): Promise<void> {
  const stub = await conversationStub(env, id);
  await stub.wipe();
  // Its own objects, and those its rows share with other conversations (a branch's artifacts
  // point at its origin's bytes): each goes only when no other conversation references it.
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.ARTIFACTS.list({ prefix: r2Prefix(id), ...(cursor && { cursor }) });
    keys.push(...page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  const rows = await db
    .select({ r2Key: artifacts.r2Key })
    .from(artifacts)
    .where(and(eq(artifacts.conversationId, id), isNotNull(artifacts.r2Key)));
  keys.push(...rows.flatMap((r) => (r.r2Key ? [r.r2Key] : [])));
  await deleteUnsharedBytes(env.DB, env.ARTIFACTS, keys, { conversationId: id });
  // Messages, artifacts and graph rows go with it (ON DELETE CASCADE).
  await db.delete(conversations).where(eq(conversations.id, id));
}
