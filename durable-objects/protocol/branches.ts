// Branching a conversation: the request (REST body and WebSocket frame) and the alternatives of a
// message. Shared by the worker and the web client; imports nothing of ours but its siblings.
import { z } from "zod";
import { ConversationMode, ConversationSettings, RouteModel } from "./conversation-settings";
import { TitleInput } from "./display-text";

/**
 * Where to branch and what the branch does first:
 * - a user message with `text`: edit it (the branch holds what came before, then asks `text`);
 * - a user message without `text`: the branch holds it and answers it again;
 * - an answer with `step`: the branch keeps that answer's first `step` tool steps (their calls and
 *   results, which are not run again) and continues it; `step: 0` regenerates the answer;
 * - an answer without `step`: the branch holds everything up to it and waits for a message.
 * Provider, model, mode and settings replace the origin's in the branch.
 */
/** As MAX_MESSAGE_CHARS in wire.ts (which imports this file). */
const MAX_TEXT_CHARS = 32_000;

export const BranchRequest = z
  .object({
    messageId: z.string().min(1).max(100),
    step: z.number().int().min(0).max(100).optional(),
    text: z.string().trim().min(1).max(MAX_TEXT_CHARS).optional(),
    title: TitleInput.optional(),
    provider: RouteModel.shape.provider.optional(),
    model: z.string().min(1).max(200).optional(),
    mode: ConversationMode.optional(),
    settings: ConversationSettings.optional(),
  })
  .strict();
export type BranchRequest = z.infer<typeof BranchRequest>;

/** The versions of the message at `seq`: one conversation each, `current` the one asked about. */
export const MessageAlternatives = z.object({
  seq: z.number().int(),
  conversations: z.array(z.object({ id: z.string(), title: z.string() })),
  current: z.number().int().min(0),
});
export type MessageAlternatives = z.infer<typeof MessageAlternatives>;

export const AlternativesList = z.object({ items: z.array(MessageAlternatives) });
export type AlternativesList = z.infer<typeof AlternativesList>;
