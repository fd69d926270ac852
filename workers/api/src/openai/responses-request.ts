// The part of OpenAI's Responses API request we honour, parsed with zod: `input` (a string, or
// message items whose text parts are read), `instructions`, `previous_response_id` (which names
// the conversation its response came from), `stream`, `reasoning.effort`. Other fields (tools, temperature, …) are
// accepted and ignored: the conversation's settings decide them.
import { z } from "zod";
import { AttachmentIds } from "../../../../durable-objects/protocol/attachments";
import { ApiError } from "../http/errors";
import type { OpenAiMessage } from "./request";

// Text parts are read; an image or a file part is refused, as other item types are.
const InputPart = z.looseObject({ type: z.string(), text: z.string().optional() });

const InputItem = z.looseObject({
  type: z.string().optional(),
  role: z.enum(["system", "developer", "user", "assistant"]).optional(),
  content: z.union([z.string(), z.array(InputPart)]).optional(),
});

export const ResponsesRequest = z.looseObject({
  model: z.string().min(1).max(240),
  input: z.union([z.string(), z.array(InputItem).min(1).max(500)]),
  instructions: z.string().nullish(),
  previous_response_id: z.string().max(300).nullish(),
  stream: z.boolean().nullish(),
  reasoning: z.looseObject({ effort: z.string().nullish() }).nullish(),
  // Our extension, as on chat completions: attachments of the named conversation, by artifact id.
  attachments: AttachmentIds.optional(),
});
export type ResponsesRequest = z.infer<typeof ResponsesRequest>;

const TEXT_PARTS = new Set(["input_text", "output_text", "text"]);

function itemText(item: z.infer<typeof InputItem>, index: number): OpenAiMessage {
  if ((item.type !== undefined && item.type !== "message") || !item.role)
    throw new ApiError(
      400,
      "bad_request",
      `input[${index}] is a '${item.type ?? "item without a role"}': only messages are read here (the conversation runs its own tools), so send messages with a role and text.`,
    );
  const { content } = item;
  if (typeof content === "string" || content === undefined)
    return { role: item.role, content: content ?? "" };
  const text = content.map((part) => {
    if (TEXT_PARTS.has(part.type) && part.text !== undefined) return part.text;
    throw new ApiError(
      400,
      "bad_request",
      `input[${index}] has content of type '${part.type}', which is not supported here: send input_text parts only.`,
    );
  });
  return { role: item.role, content: text.join("") };
}

/** The request as chat messages: the instructions first, as a system message. */
export function messagesOf(body: ResponsesRequest): OpenAiMessage[] {
  const input =
    typeof body.input === "string"
      ? [{ role: "user" as const, content: body.input }]
      : body.input.map(itemText);
  return body.instructions ? [{ role: "system", content: body.instructions }, ...input] : input;
}
