// What a branch takes from its origin, read from the origin's own storage (the source of truth,
// ahead of D1): the messages before the branch point, the tool-call records behind them, and for
// an answer continued or regenerated, its user message and the steps it keeps.
import type { ChatMessage, MessagePart } from "../../protocol/messages";
import type { BranchRequest } from "../../protocol/branches";
import { callIdsOf } from "../history";
import type { ConversationStore, StoredToolCall } from "../store";

export type ShownPart = Extract<MessagePart, { type: "reasoning" | "text" | "tool_call" }>;
export type CopiedToolCall = StoredToolCall & { step: number };

export interface BranchSource {
  /** Messages copied whole, oldest first (the origin's ids). */
  messages: ChatMessage[];
  /** The first message order (seq) that is the branch's own. */
  branchSeq: number;
  /** An answer the branch makes at once: to `userMessageId`, keeping its first `step` steps. */
  answer?: { userMessageId: string; step: number; shown: ShownPart[]; originMessageId?: string };
  /** A message the branch asks at once (an edit). */
  send?: string;
  toolCalls: CopiedToolCall[];
}

export class BranchError extends Error {
  constructor(
    readonly code: "not_found" | "invalid_request" | "conflict",
    message: string,
  ) {
    super(message);
  }
}

type Point = Pick<BranchRequest, "messageId" | "step" | "text">;

/** Reads the branch point `point` of this conversation, or throws a BranchError saying why not. */
export function branchSource(store: ConversationStore, point: Point): BranchSource {
  const all = store.messages();
  const message = all.find((m) => m.id === point.messageId);
  if (!message) {
    const running = store.runningTurn();
    if (running?.assistantMessageId === point.messageId)
      throw new BranchError(
        "conflict",
        "This answer is still being written; branch from it once it has finished (or cancel it).",
      );
    throw new BranchError("not_found", "There is no message with that id in this conversation.");
  }
  // Copied as they read now: an artifact renamed or deleted since under its title now, marked.
  const before = (seq: number) => store.withArtifactsNow(all.filter((m) => m.seq < seq));
  const source = (messages: ChatMessage[], branchSeq: number, rest: Partial<BranchSource> = {}) => {
    const shown = rest.answer?.shown ?? [];
    return {
      messages,
      branchSeq,
      ...rest,
      toolCalls: store.toolCallsWithStep(
        callIdsOf([...messages.flatMap((m) => m.content), ...shown]),
      ),
    };
  };

  if (message.role === "user") {
    if (point.step !== undefined)
      throw new BranchError(
        "invalid_request",
        "`step` applies to an answer: send the id of an answer to branch from one of its steps.",
      );
    // An edit asks the new text where the old one was; without text, the question is answered again.
    if (point.text !== undefined)
      return source(before(message.seq), message.seq, { send: point.text });
    return source(before(message.seq + 1), message.seq + 1, {
      answer: { userMessageId: message.id, step: 0, shown: [] },
    });
  }

  if (point.text !== undefined)
    throw new BranchError(
      "invalid_request",
      "Only your own messages can be edited: to change an answer, regenerate it (`step: 0`).",
    );
  if (point.step === undefined) return source(before(message.seq + 1), message.seq + 1);

  const question = all.findLast((m) => m.role === "user" && m.seq < message.seq);
  if (!question)
    throw new BranchError("not_found", "This answer has no question before it to answer again.");
  const steps = store.toolCallsWithStep(callIdsOf(message.content));
  const stepOf = new Map(steps.map((c) => [c.id, c.step]));
  const lastStep = Math.max(0, ...steps.map((c) => c.step));
  if (point.step > lastStep)
    throw new BranchError(
      "invalid_request",
      `This answer has ${lastStep} tool step${lastStep === 1 ? "" : "s"}: choose a step from 0 to ${lastStep}.`,
    );
  return source(before(question.seq + 1), message.seq, {
    answer: {
      userMessageId: question.id,
      step: point.step,
      shown: shownUpTo(message.content, stepOf, point.step),
      originMessageId: message.id,
    },
  });
}

/** The answer as shown up to the end of `step`: up to its last tool call, artifacts left out. */
export function shownUpTo(
  parts: readonly MessagePart[],
  stepOf: ReadonlyMap<string, number>,
  step: number,
): ShownPart[] {
  if (step === 0) return [];
  const last = parts.findLastIndex(
    (p) => p.type === "tool_call" && (stepOf.get(p.callId) ?? Infinity) <= step,
  );
  return parts
    .slice(0, last + 1)
    .filter((p): p is ShownPart => p.type !== "artifact")
    .filter((p) => p.type !== "tool_call" || stepOf.has(p.callId));
}
