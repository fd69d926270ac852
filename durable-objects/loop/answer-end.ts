// Why an answer ended short of a whole one, told to the user: the provider said it stopped at
// the answer's max tokens, or a safety filter or the model's refusal stopped it, or the model
// said nothing at all. Without this the user sees a sentence that breaks off, or an empty
// message, and no reason. The note goes out as a notice now and ends the answer, which keeps it.
import type { MessagePart } from "../protocol/messages";
import type { FinishReason } from "../providers/types";
import type { LoopDeps, LoopState } from "./types";

/** How a step ended, as its provider said. */
export interface StepEnd {
  reason?: FinishReason;
  /** The provider's own words on why (Anthropic's explanation of a refusal). */
  detail?: string;
}

export function answerEndNote(
  { reason: finish, detail }: StepEnd,
  content: readonly MessagePart[],
  maxTokens: number,
): string | null {
  if (finish === "length")
    return detail
      ? `The answer was cut off: ${sentence(detail)} Start a new conversation, or pick a model with a larger context window.`
      : `The answer was cut off: the model reached the most it may write in one answer. Ask it to go on, or raise the conversation's maxTokens setting (now ${maxTokens}).`;
  if (finish === "content_filter") {
    const why = detail
      ? sentence(detail)
      : "its safety filter blocked it, or the model declined to answer.";
    return `The provider stopped this answer: ${why} Rephrase the request, or pick another model; this question is left out of what the model sees from now on.`;
  }
  if (!content.some((p) => (p.type === "text" && p.text.trim()) || p.type === "artifact"))
    return "The model returned an empty answer. Send the message again, or pick another model.";
  return null;
}

const sentence = (s: string) => (/[.!?]$/.test(s.trim()) ? s.trim() : `${s.trim()}.`);

/**
 * The answer with the note that says why it ended short, when it did (and the notice sent). A
 * stop at max tokens or by a filter is kept in `state` too, for clients that report it apart
 * (the OpenAI-compatible API's finish_reason).
 */
export function withAnswerEndNote(
  deps: Pick<LoopDeps, "emit">,
  state: Pick<LoopState, "cutShort">,
  content: MessagePart[],
  end: StepEnd,
  maxTokens: number,
): MessagePart[] {
  const note = answerEndNote(end, content, maxTokens);
  if (!note) return content;
  if (end.reason === "length" || end.reason === "content_filter") state.cutShort = end.reason;
  deps.emit({ type: "notice", level: "warning", message: note });
  return [...content, { type: "text", text: `_${note}_` }];
}
