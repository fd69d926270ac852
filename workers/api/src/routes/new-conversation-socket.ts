// `GET /api/conversations/:id/ws?new=1`: the socket creates its conversation. A client that picks
// a fresh id (a UUID) opens the socket and sends its first message in one round trip, as to any
// other conversation: no POST first, no ticket. It counts against the same per-user limit as
// POST /api/conversations and takes the same choices (title, template, provider, model, mode).
// An id that exists is that conversation (a repeated open is harmless); a stranger's is not found,
// as always. A refusal is said on the socket (`refusedCreation`): a browser never sees why an
// upgrade failed. The object is not started beside the row's write: the upgrade that follows
// starts it, one call fewer (under `wrangler dev`, where both share a thread, 6 ms sooner).
import type { Context } from "hono";
import { z } from "zod";
import {
  CLOSE_CONVERSATION_GONE,
  CLOSE_CREATE_REFUSED,
} from "../../../../durable-objects/protocol/close-codes";
import { ConversationMode } from "../../../../durable-objects/protocol/rest";
import type { ConversationRole } from "../../../../durable-objects/protocol/sharing";
import {
  configuredProviders,
  DEFAULT_MODELS,
} from "../../../../durable-objects/providers/registry";
import { RATE_LIMITS } from "../../../../shared/rate-limit/limits";
import type { AppEnv } from "../app-types";
import { conversationFor } from "../db/conversation-access";
import { createConversationIfAbsent } from "../db/conversations";
import { ApiError } from "../http/errors";
import { parseQuery } from "../http/validate";
import { enforceRateLimit } from "../rate-limit/middleware";
import { applyTemplate, type ConversationChoices } from "../templates/conversation-from-template";
import { findTemplate } from "../templates/find-template";
import { ProviderIdSchema } from "./providers";
import { TitleInput } from "../../../../durable-objects/protocol/display-text";

export const NewSocketQuery = z.object({
  new: z.literal("1"),
  ticket: z.string().optional(),
  provider: ProviderIdSchema.optional(),
  model: z.string().min(1).max(200).optional(),
  mode: ConversationMode.optional(),
  title: TitleInput.optional(),
  // A template's defaults fill what the query leaves out, as in POST /api/conversations.
  templateId: z.string().min(1).max(100).optional(),
});

const NewId = z.uuid();

/** Whether the upgrade asks to create its conversation. */
export const asksForNewConversation = (c: Context<AppEnv>) => c.req.query("new") !== undefined;

export async function openNewConversation(
  c: Context<AppEnv>,
  id: string,
  user: { id: string; name?: string | undefined },
): Promise<ConversationRole> {
  if (!NewId.safeParse(id).success)
    throw new ApiError(
      400,
      "validation_failed",
      `A new conversation's id must be a UUID you generate (crypto.randomUUID()), not '${id.slice(0, 40)}'.`,
    );
  const { templateId, title, provider: picked, model, mode } = parseQuery(c, NewSocketQuery);
  const chosen: ConversationChoices = { provider: picked, model, mode };
  await enforceRateLimit(c, RATE_LIMITS.newConversation, () => `user:${user.id}`);
  const db = c.get("db");
  const choices = templateId
    ? applyTemplate(await findTemplate(db, user.id, templateId), chosen, user.name ?? "")
    : chosen;
  // Without a choice, the first provider this deployment has a key for (as POST does).
  const provider = choices.provider ?? configuredProviders(c.env)[0] ?? "anthropic";
  const created = await createConversationIfAbsent(db, id, {
    userId: user.id,
    title: title ?? "New conversation",
    provider,
    model: choices.model ?? DEFAULT_MODELS[provider],
    mode: choices.mode ?? "normal",
    settings: choices.settings ?? {},
  });
  if (created) return "owner";
  return (await conversationFor(db, user.id, id, "read")).role;
}

/**
 * A creating socket that could not create its conversation: a browser is never shown why an
 * upgrade failed, so the socket opens, says why in one `frame_error` (the code and message the
 * HTTP error would have had) and closes with CLOSE_CREATE_REFUSED, or CLOSE_CONVERSATION_GONE for
 * a stranger's id.
 */
export function refusedCreation(error: ApiError): Response {
  const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
  server.accept();
  server.send(
    JSON.stringify({ type: "frame_error", error: { code: error.code, message: error.message } }),
  );
  server.close(error.status === 404 ? CLOSE_CONVERSATION_GONE : CLOSE_CREATE_REFUSED, error.code);
  return new Response(null, { status: 101, webSocket: client });
}
