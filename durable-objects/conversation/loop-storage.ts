// The loop's durable memory kept in the DO's SQLite: tool-call records and step checkpoints.
import { z } from "zod";
import { MessagePart } from "../protocol/messages";
import type { LoopState, ToolCallLog, ToolCallRecord } from "../loop/types";
import type { NeutralMessage, NeutralPart } from "../providers/types";
import type { ConversationStore, StoredToolCall } from "./store";

export function toolCallLog(store: ConversationStore): ToolCallLog {
  const toRecord = (c: StoredToolCall | null): ToolCallRecord | null =>
    c ? (c as ToolCallRecord) : null;
  return {
    findDone: (key) => toRecord(store.toolCall("key", key)),
    find: (id) => toRecord(store.toolCall("id", id)),
    idsLike: (id) => store.toolCallIdsLike(id),
    start: (record, turnId, step) => store.startToolCall(record, turnId, step),
    finish: (id, status, result) => store.finishToolCall(id, status, result),
  };
}

/** Images and attached PDFs are left out of a checkpoint: a row holds 2 MB at most. */
const stripContent = <P extends { type: string }>(c: P): P | { type: "text"; text: string } =>
  c.type === "image"
    ? { type: "text", text: IMAGE_OMITTED }
    : c.type === "document"
      ? { type: "text", text: PDF_OMITTED }
      : c;

const stripMessage = (m: NeutralMessage): NeutralMessage => ({
  ...m,
  content: m.content.map((p) =>
    p.type === "tool_result"
      ? { ...p, content: p.content.map(stripContent) as typeof p.content }
      : (stripContent(p) as NeutralPart),
  ),
});

/** The state as a checkpoint keeps it: without the bytes of images and attached PDFs. */
export function checkpointable(state: LoopState): LoopState {
  return { ...checkpointableRest(state), messages: state.messages.map(stripMessage) };
}

/** All of `checkpointable` but the messages, which a checkpoint stores in rows of their own. */
function checkpointableRest(state: LoopState): Omit<LoopState, "messages"> {
  const { messages: _messages, turnFrom: _turnFrom, ...rest } = state;
  if (!state.pending) return rest;
  const answers = Object.fromEntries(
    Object.entries(state.pending.answers).map(([id, a]) => [
      id,
      {
        ...a,
        part: { ...a.part, content: a.part.content.map(stripContent) as typeof a.part.content },
      },
    ]),
  );
  return { ...rest, pending: { ...state.pending, answers } };
}

const IMAGE_OMITTED = "[image omitted after a restart]";
const PDF_OMITTED = "[PDF omitted after a restart]";

/**
 * Per store, the turn's own messages it last checkpointed, as the loop held them. The loop only
 * ever appends to a turn's messages (a new list with the same messages first), so the next
 * checkpoint of that turn writes the ones added since; anything else writes them all.
 */
const written = new WeakMap<
  ConversationStore,
  { turnId: string; count: number; first?: NeutralMessage; last?: NeutralMessage }
>();

/**
 * Stores the loop's state with the last event shown at that point: a step run again after a
 * restart takes the answer back to what clients showed at its checkpoint. Of the messages, only
 * the turn's own are stored (the history it began with is the conversation's, assembled again
 * when the turn resumes), each once: a step writes what it added.
 */
export function saveCheckpoint(store: ConversationStore, turnId: string, state: LoopState): void {
  // A turn that has its answer needs no history to finish (the loop returns `final` at once), so
  // its checkpoint keeps none: a plain answer's only checkpoint used to write the whole history,
  // which the turn's end deleted in the same transaction.
  if (state.final) {
    store.saveCheckpoint(
      turnId,
      { seq: store.lastSeq(), messageCount: 0, state: checkpointableRest(state) },
      { from: 0, added: [] },
    );
    written.delete(store);
    return;
  }
  const mark = written.get(store);
  // A state resumed from a checkpoint written before the history was left out has all of it.
  const historyLeftOut = state.turnFrom !== undefined || state.historyLeftOut === true;
  const messages = state.messages.slice(state.turnFrom ?? 0);
  const appended =
    mark?.turnId === turnId &&
    messages.length >= mark.count &&
    messages[0] === mark.first &&
    messages[mark.count - 1] === mark.last;
  const from = appended ? mark.count : 0;
  store.saveCheckpoint(
    turnId,
    {
      seq: store.lastSeq(),
      messageCount: messages.length,
      ...(historyLeftOut && { historyLeftOut }),
      state: checkpointableRest(state),
    },
    { from, added: messages.slice(from).map(stripMessage) },
  );
  written.set(store, { turnId, count: messages.length, first: messages[0], last: messages.at(-1) });
}

/** The turn is over: its checkpoint goes, messages and all. */
export function dropCheckpoint(store: ConversationStore, turnId: string): void {
  store.dropCheckpoint(turnId);
  if (written.get(store)?.turnId === turnId) written.delete(store);
}

// Checkpoints are our own rows, but they cross a restart (and a deploy that changed their shape):
// check their shape before trusting them. One that does not fit restarts the turn from the start.
const CallAnswerSchema = z.object({
  part: z.object({ type: z.literal("tool_result"), callId: z.string() }).passthrough(),
  fresh: z.boolean(),
});

export const LoopStateSchema = z
  .object({
    step: z.number().int().min(0),
    messages: z.array(
      z.object({
        role: z.enum(["user", "assistant", "tool"]),
        content: z.array(z.object({ type: z.string() }).passthrough()),
      }),
    ),
    shown: z.array(MessagePart),
    artifactParts: z.array(z.object({ type: z.literal("artifact") }).passthrough()),
    graphs: z.array(z.unknown()),
    noProgressSteps: z.number(),
    formatterRepairs: z.number(),
    pending: z
      .object({
        calls: z.array(z.object({ id: z.string(), name: z.string() }).passthrough()),
        answers: z.record(z.string(), CallAnswerSchema),
      })
      .optional(),
    final: z.array(z.unknown()).optional(),
  })
  .passthrough();

const CheckpointRow = z.object({ seq: z.number().int(), state: LoopStateSchema });

export interface Checkpoint {
  /** The last event of the log when the checkpoint was taken. */
  seq: number;
  state: LoopState;
}

/** Where the messages are in a checkpoint written since they have rows of their own. */
const SplitCheckpoint = z.object({
  seq: z.number().int(),
  messageCount: z.number().int().min(0),
  /** The rows are the turn's own messages; the history is assembled again (loop.ts). */
  historyLeftOut: z.literal(true).optional(),
  state: z.record(z.string(), z.unknown()),
});

/** The stored checkpoint of a turn, or null when there is none (or it cannot be trusted). */
export function loadCheckpoint(store: ConversationStore, turnId: string): Checkpoint | null {
  const stored = store.loadCheckpoint(turnId);
  if (!stored) return null;
  // A checkpoint written before the messages had rows of their own holds them in its state.
  const split = SplitCheckpoint.safeParse(stored.checkpoint);
  if (split.success && stored.messages.length !== split.data.messageCount) return null;
  const parsed = CheckpointRow.safeParse(
    split.success
      ? {
          seq: split.data.seq,
          state: {
            ...split.data.state,
            messages: stored.messages,
            ...(split.data.historyLeftOut && { historyLeftOut: true }),
          },
        }
      : stored.checkpoint,
  );
  return parsed.success
    ? { seq: parsed.data.seq, state: parsed.data.state as unknown as LoopState }
    : null;
}
