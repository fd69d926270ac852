// What a turn reads from D1 before it calls the model (the conversation's row, its pinned
// artifacts, the owner's tool policies and MCP servers), as one batch: one round trip, not a read
// of the row and then three more. The owner's rows are found by the conversation's id, so the
// batch needs nothing the row would tell first.
import { z } from "zod";
import type { Env } from "../../shared/env";
import type { PinnedArtifact } from "../loop/prompts";
import { withoutBidiControls } from "../protocol/display-text";
import type { ToolPolicies } from "../protocol/tool-policy";
import { CONVERSATION_ROW_SQL, conversationFromRow } from "./conversation-row";
import { type ServerConfig, serversFromRows, userServersSql } from "./mcp-servers";
import type { ConversationInfo } from "./turn";
import { policiesFromRows, userPoliciesSql } from "./user-tool-policies";

export interface TurnReads {
  conversation: ConversationInfo;
  pinned: PinnedArtifact[];
  userPolicies: ToolPolicies;
  /** The owner's enabled MCP servers, ours first. */
  servers: ServerConfig[];
}

// Read raw (not through drizzle's title column): rows written before titles lost their bidi
// controls on the way in still hold them, and a title reaches the system prompt as it is read.
const PinnedRow = z.object({
  title: z.string().transform(withoutBidiControls),
  type: z.string(),
  content: z.string(),
});

const OWNER = "(SELECT user_id FROM conversations WHERE id = ?1)";
const PINNED_SQL =
  "SELECT title, type, content FROM artifacts WHERE conversation_id = ?1 AND pinned = 1 AND content IS NOT NULL ORDER BY position";

export async function readTurnContext(env: Env, conversationId: string): Promise<TurnReads> {
  return turnReadsFrom(env, await env.DB.batch(turnReadStatements(env.DB, conversationId)));
}

/** The statements of `readTurnContext`, to go in a larger batch (send-batch.ts). */
export function turnReadStatements(db: D1Database, conversationId: string): D1PreparedStatement[] {
  return [
    db.prepare(CONVERSATION_ROW_SQL).bind(conversationId),
    db.prepare(PINNED_SQL).bind(conversationId),
    db.prepare(userPoliciesSql(OWNER)).bind(conversationId),
    db.prepare(userServersSql(OWNER)).bind(conversationId),
  ];
}

/** The answers to `turnReadStatements`, in their order. */
export function turnReadsFrom(env: Env, results: readonly D1Result[]): TurnReads {
  const [row, pinned, policies, servers] = results;
  return {
    conversation: conversationFromRow(row?.results[0]),
    pinned: (pinned?.results ?? []).flatMap((r): PinnedArtifact[] => {
      const parsed = PinnedRow.safeParse(r);
      return parsed.success ? [parsed.data] : [];
    }),
    userPolicies: policiesFromRows(policies?.results ?? []),
    servers: serversFromRows(env, servers?.results ?? []),
  };
}
