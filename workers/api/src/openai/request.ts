// The part of OpenAI's chat-completions request we honour, parsed with zod. Other fields that
// clients commonly send (temperature, top_p, user, …) are accepted and ignored: the
// conversation's settings decide them.
import { z } from "zod";
import { AttachmentIds } from "../../../../durable-objects/protocol/attachments";
import { ReasoningEffort } from "../../../../durable-objects/protocol/conversation-settings";
import { MAX_MESSAGE_CHARS } from "../../../../durable-objects/protocol/wire";
import { ApiError } from "../http/errors";

const TextContentPart = z.object({ type: z.literal("text"), text: z.string() });
// Images, audio and files are not read by this endpoint: a part of another type is refused.
const ContentPart = z.looseObject({ type: z.string() });

const Message = z.looseObject({
  role: z.enum(["system", "developer", "user", "assistant", "tool", "function"]),
  content: z.union([z.string(), z.array(ContentPart), z.null()]).optional(),
});
export type OpenAiMessage = z.infer<typeof Message>;

export const ChatCompletionRequest = z.looseObject({
  model: z.string().min(1).max(240),
  messages: z.array(Message).min(1).max(500),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  reasoning_effort: z.string().nullish(),
  // Our extension: attachments of the conversation named by X-Conversation-Id, by artifact id.
  attachments: AttachmentIds.optional(),
});
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequest>;

/**
 * The reasoning effort a client asked for (`reasoning_effort`, or a response's `reasoning.effort`),
 * for this message only; the efforts every provider can be asked are low, medium and high.
 */
export function reasoningEffortOf(
  value: string | null | undefined,
  field: string,
): ReasoningEffort | undefined {
  if (value === null || value === undefined) return undefined;
  const effort = ReasoningEffort.safeParse(value);
  if (effort.success) return effort.data;
  throw new ApiError(
    400,
    "bad_request",
    `${field} '${value}' is not one this app can ask of every model: send low, medium or high, or leave it out for the conversation's setting.`,
  );
}

function textOf(message: OpenAiMessage): string {
  const { content } = message;
  if (content === null || content === undefined) return "";
  if (typeof content === "string") return content;
  return content
    .map((part) => {
      const text = TextContentPart.safeParse(part);
      if (text.success) return text.data.text;
      throw new ApiError(
        400,
        "bad_request",
        `Message content of type '${String(part.type)}' is not supported here: send text parts only.`,
      );
    })
    .join("");
}

/**
 * The text of the message to send. The conversation keeps its own history, so only the last
 * user message is new; in a conversation created for this request, earlier messages the client
 * sent (its own history, a system prompt) come along, quoted before it, so nothing is lost.
 */
export function newMessageText(messages: OpenAiMessage[], freshConversation: boolean): string {
  const last = messages.at(-1);
  if (!last || last.role !== "user")
    throw new ApiError(
      400,
      "bad_request",
      "The last message must have role 'user': it is the message this request sends.",
    );
  const text = textOf(last).trim();
  if (!text) throw new ApiError(400, "bad_request", "The last user message has no text.");
  const earlier = freshConversation
    ? messages
        .slice(0, -1)
        .map((m) => ({ role: m.role, text: textOf(m).trim() }))
        .filter((m) => m.text)
    : [];
  const full =
    earlier.length === 0
      ? text
      : `Earlier in this conversation:\n${earlier.map((m) => `[${m.role}] ${m.text}`).join("\n\n")}\n\n${text}`;
  if (full.length > MAX_MESSAGE_CHARS)
    throw new ApiError(
      413,
      "payload_too_large",
      `The message is ${full.length} characters; at most ${MAX_MESSAGE_CHARS} fit. Send a shorter one, or name the conversation (X-Conversation-Id) instead of resending its history.`,
    );
  return full;
}
