// REST for conversations and their messages and artifacts.
import { Hono } from "hono";
import { z } from "zod";
import type { MessagePage } from "../../../../durable-objects/protocol/messages";
import { ConversationMode, ConversationSettings } from "../../../../durable-objects/protocol/rest";
import {
  configuredProviders,
  DEFAULT_MODELS,
} from "../../../../durable-objects/providers/registry";
import type { AppEnv } from "../app-types";
import { listArtifacts } from "../db/artifacts";
import {
  createConversation,
  decodeCursor,
  listConversations,
  toConversation,
  updateConversation,
} from "../db/conversations";
import { listMessages } from "../db/messages";
import { conversationFor } from "../db/conversation-access";
import { seesUsage } from "../../../../durable-objects/protocol/roles";
import {
  conversationForViewer,
  messageForViewer,
} from "../../../../durable-objects/protocol/viewer-view";
import { parseJsonBody, parseParam } from "../http/validate";
import { validQuery } from "../http/validated";
import { deleteConversationEverywhere } from "../conversation-lifecycle";
import { ProviderIdSchema } from "./providers";
import { applyTemplate } from "../templates/conversation-from-template";
import { findTemplate } from "../templates/find-template";
import { firstSocketOf } from "./first-socket";

import { TitleInput } from "../../../../durable-objects/protocol/display-text";

export const IdParam = z.string().min(1).max(100);

const CreateBody = z
  .object({
    title: TitleInput.optional(),
    provider: ProviderIdSchema.optional(),
    model: z.string().min(1).max(200).optional(),
    mode: ConversationMode.optional(),
    settings: ConversationSettings.optional(),
  })
  .strict();

// A new conversation may start from a template (built-in or the user's own).
export const CreateFromTemplateBody = CreateBody.extend({
  templateId: z.string().min(1).max(100).optional(),
});

export const PatchBody = CreateBody.refine((b) => Object.keys(b).length > 0, {
  message: "Send at least one of title, provider, model, mode, settings.",
});

// Only a nextCursor this API gave out: anything else would silently restart at the first page,
// and a client following nextCursor would loop.
const ListCursor = z
  .string()
  .max(200)
  .refine((cursor) => decodeCursor(cursor) !== null, {
    message:
      "not a cursor this API gave out (pass a nextCursor of an earlier page as it came, or start again without cursor)",
  });

const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(30),
  cursor: ListCursor.optional(),
  q: z.string().max(200).optional(),
  // `shared`: also the conversations shared with you, each with your role.
  include: z.literal("shared").optional(),
});

const MessagesQuery = z.object({
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(200),
});

export const conversationRoutes = new Hono<AppEnv>()
  .get("/", validQuery(ListQuery), async (c) => {
    const { include, ...q } = c.req.valid("query");
    return c.json(
      await listConversations(c.get("db"), c.get("user").id, {
        ...q,
        includeShared: include === "shared",
      }),
    );
  })
  .post("/", async (c) => {
    const { templateId, ...request } = await parseJsonBody(c, CreateFromTemplateBody);
    const user = c.get("user");
    const body = templateId
      ? applyTemplate(await findTemplate(c.get("db"), user.id, templateId), request, user.name)
      : request;
    // Without a choice, the first provider this deployment has a key for.
    const provider = body.provider ?? configuredProviders(c.env)[0] ?? "anthropic";
    const conversation = await createConversation(c.get("db"), {
      userId: user.id,
      title: request.title ?? "New conversation",
      provider,
      model: body.model ?? DEFAULT_MODELS[provider],
      mode: body.mode ?? "normal",
      settings: body.settings ?? {},
    });
    return c.json({ ...conversation, socket: await firstSocketOf(c, conversation.id) }, 201);
  })
  .get("/:id", async (c) => {
    const id = parseParam(c, "id", IdParam);
    const { row, role } = await conversationFor(c.get("db"), c.get("user").id, id, "read");
    // A viewer does not see what the owner spends, nor the budgets that would tell it.
    const conversation = toConversation(row);
    return c.json(seesUsage(role) ? conversation : conversationForViewer(conversation));
  })
  .patch("/:id", async (c) => {
    const id = parseParam(c, "id", IdParam);
    const body = await parseJsonBody(c, PatchBody);
    if (body.provider && !body.model) body.model = DEFAULT_MODELS[body.provider];
    await conversationFor(c.get("db"), c.get("user").id, id, "manage");
    return c.json(await updateConversation(c.get("db"), c.get("user").id, id, body));
  })
  .delete("/:id", async (c) => {
    const id = parseParam(c, "id", IdParam);
    await conversationFor(c.get("db"), c.get("user").id, id, "manage");
    await deleteConversationEverywhere(c.env, c.get("db"), id);
    return c.body(null, 204);
  })
  .get("/:id/messages", validQuery(MessagesQuery), async (c) => {
    const id = parseParam(c, "id", IdParam);
    const q = c.req.valid("query");
    const { role } = await conversationFor(c.get("db"), c.get("user").id, id, "read");
    // One more than asked: whether there is a next page, without a count.
    const rows = await listMessages(c.get("db"), id, q.after, q.limit + 1);
    const page = rows.slice(0, q.limit);
    const items = seesUsage(role) ? page : page.map(messageForViewer);
    const nextAfter = rows.length > q.limit ? (items.at(-1)?.seq ?? null) : null;
    return c.json({ items, nextAfter } satisfies MessagePage);
  })
  .get("/:id/artifacts", async (c) => {
    const id = parseParam(c, "id", IdParam);
    await conversationFor(c.get("db"), c.get("user").id, id, "read");
    return c.json({ items: await listArtifacts(c.get("db"), id) });
  });
