// `GET /api/conversations/:id/ws?new=1`: the socket creates its conversation. A client that picks
// a fresh id (a UUID) opens the socket and sends its first message in one round trip, as to any
// other conversation: no POST first, no ticket. It counts against the same per-user limit as
// POST /api/conversations. An id that exists is that conversation (a repeated open is harmless);
// a stranger's answers 404, as always. The object starts while the row is written.
import type { Context } from "hono";
import { z } from "zod";
import { ConversationMode } from "../../../../durable-objects/protocol/rest";
import type { ConversationRole } from "../../../../durable-objects/protocol/sharing";
import {
  configuredProviders,
  DEFAULT_MODELS,
} from "../../../../durable-objects/providers/registry";
import { RATE_LIMITS } from "../../../../shared/rate-limit/limits";
import type { AppEnv } from "../app-types";
import { conversationStub } from "../conversation-lifecycle";
import { conversationFor } from "../db/conversation-access";
import { createConversationIfAbsent } from "../db/conversations";
import { ApiError } from "../http/errors";
import { parseQuery } from "../http/validate";
import { enforceRateLimit } from "../rate-limit/middleware";
import { ProviderIdSchema } from "./providers";

const NewSocketQuery = z.object({
  new: z.literal("1"),
  ticket: z.string().optional(),
  provider: ProviderIdSchema.optional(),
  model: z.string().min(1).max(200).optional(),
  mode: ConversationMode.optional(),
});

const NewId = z.uuid();

/** Whether the upgrade asks to create its conversation. */
export const asksForNewConversation = (c: Context<AppEnv>) => c.req.query("new") !== undefined;

export async function openNewConversation(
  c: Context<AppEnv>,
  id: string,
  userId: string,
): Promise<{ role: ConversationRole; stub: Awaited<ReturnType<typeof conversationStub>> }> {
  if (!NewId.safeParse(id).success)
    throw new ApiError(
      400,
      "validation_failed",
      `A new conversation's id must be a UUID you generate (crypto.randomUUID()), not '${id.slice(0, 40)}'.`,
    );
  const query = parseQuery(c, NewSocketQuery);
  await enforceRateLimit(c, RATE_LIMITS.newConversation, () => `user:${userId}`);
  // Without a choice, the first provider this deployment has a key for (as POST does).
  const provider = query.provider ?? configuredProviders(c.env)[0] ?? "anthropic";
  const [created, stub] = await Promise.all([
    createConversationIfAbsent(c.get("db"), id, {
      userId,
      title: "New conversation",
      provider,
      model: query.model ?? DEFAULT_MODELS[provider],
      mode: query.mode ?? "normal",
      settings: {},
    }),
    conversationStub(c.env, id),
  ]);
  if (created) return { role: "owner", stub };
  const { role } = await conversationFor(c.get("db"), userId, id, "read");
  return { role, stub };
}
