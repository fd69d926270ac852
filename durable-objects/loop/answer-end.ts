// Why an answer ended short of a whole one, told to the user: the provider said it stopped at
// the answer's max tokens, or a safety filter or the model's refusal stopped it, or the model
// said nothing at all. Without this the user sees a sentence that breaks off, or an empty
// message, and no reason. The note goes out as a notice now and ends the answer, which keeps it.
import type { MessagePart } from "../protocol/messages";
import type { FinishReason } from "../providers/types";
import type { LoopDeps } from "./types";

export function answerEndNote(
  finish: FinishReason | undefined,
  content: readonly MessagePart[],
  maxTokens: number,
): string | null {
  if (finish === "length")
    return `The answer was cut off: the model reached the most it may write in one answer. Ask it to go on, or raise the conversation's maxTokens setting (now ${maxTokens}).`;
  if (finish === "content_filter")
    return "The provider stopped this answer: its safety filter blocked it, or the model declined to answer. Rephrase the request, or pick another model.";
  if (!content.some((p) => (p.type === "text" && p.text.trim()) || p.type === "artifact"))
    return "The model returned an empty answer. Send the message again, or pick another model.";
  return null;
}

/** The answer with the note that says why it ended short, when it did (and the notice sent). */
export function withAnswerEndNote(
  deps: Pick<LoopDeps, "emit">,
  content: MessagePart[],
  finish: FinishReason | undefined,
  maxTokens: number,
): MessagePart[] {
  const note = answerEndNote(finish, content, maxTokens);
  if (!note) return content;
  deps.emit({ type: "notice", level: "warning", message: note });
  return [...content, { type: "text", text: `_${note}_` }];
}
