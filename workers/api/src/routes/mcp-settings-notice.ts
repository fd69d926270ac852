// Telling the owner's running turns that their MCP servers or tool policies changed in Settings:
// a turn reads its servers and policies once, as it starts, and would otherwise go on calling a
// server the owner just removed, re-pointed or gave new headers (a revoked key) until it ends.
// Shared conversations run on their owner's servers, so the owner's conversations are all there
// is to tell. Only those touched lately may be running a turn (a turn writes its conversation's
// row within a second of its start); the most recent few are told, the rest left asleep.
import type { Env } from "../../../../shared/env";
import { conversationStub } from "../conversation-lifecycle";

/** How far back a conversation may have started a turn that still runs. */
export const RUNNING_TURN_WINDOW_MS = 2 * 60 * 60_000;
/** At most this many conversations are told of one change (the most recently active). */
export const MAX_CONVERSATIONS_TOLD = 20;

export async function tellRunningTurns(env: Env, ownerId: string): Promise<void> {
  try {
    const { results } = await env.DB.prepare(
      "SELECT id FROM conversations WHERE user_id = ? AND updated_at > ? ORDER BY updated_at DESC LIMIT ?",
    )
      .bind(ownerId, Date.now() - RUNNING_TURN_WINDOW_MS, MAX_CONVERSATIONS_TOLD)
      .all<{ id: string }>();
    // Awaited: once Settings answers, no running turn makes another call with the old settings.
    await Promise.all(
      results.map(async ({ id }) => {
        try {
          await (await conversationStub(env, id)).mcpSettingsChanged();
        } catch (err) {
          console.warn("could not tell a conversation that MCP settings changed", err);
        }
      }),
    );
  } catch (err) {
    // The change is saved; a turn that started before it keeps the old settings until it ends.
    console.warn("could not find the conversations to tell of an MCP settings change", err);
  }
}
