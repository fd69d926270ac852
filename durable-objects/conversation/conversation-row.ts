// The conversation's row in D1 (owner, provider, model, mode, settings), as a turn reads it.
import { z } from "zod";
import { ConversationSettings } from "../protocol/conversation-settings";
import type { ConversationInfo } from "./turn";

/** A turn cannot begin (its conversation is gone): it fails with this code and message. */
export class TurnSetupError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const CONVERSATION_ROW_SQL =
  "SELECT id, user_id, provider, model, mode, settings FROM conversations WHERE id = ?1";

const ConversationRow = z.object({
  id: z.string(),
  user_id: z.string(),
  provider: z.enum(["anthropic", "openai", "gemini", "ollama"]),
  model: z.string(),
  mode: z.enum(["normal", "graph", "tools"]),
  settings: z.string(),
});

/** The row of CONVERSATION_ROW_SQL; no row means the conversation was deleted. */
export function conversationFromRow(row: unknown): ConversationInfo {
  const parsed = ConversationRow.safeParse(row);
  if (!parsed.success) throw new TurnSetupError("not_found", "This conversation no longer exists.");
  const settings = ConversationSettings.safeParse(JSON.parse(parsed.data.settings));
  return {
    id: parsed.data.id,
    userId: parsed.data.user_id,
    provider: parsed.data.provider,
    model: parsed.data.model,
    mode: parsed.data.mode,
    settings: settings.success ? settings.data : {},
  };
}
