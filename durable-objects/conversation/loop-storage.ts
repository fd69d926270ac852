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
    start: (record, turnId, step) => store.startToolCall(record, turnId, step),
    finish: (id, status, result) => store.finishToolCall(id, status, result),
  };
}

/**
 * A checkpoint row must stay well under the DO's 2 MB row limit: images and attached PDFs are
 * left out of it.
 */
export function checkpointable(state: LoopState): LoopState {
  const stripContent = <P extends { type: string }>(c: P): P | { type: "text"; text: string } =>
    c.type === "image"
      ? { type: "text", text: IMAGE_OMITTED }
      : c.type === "document"
        ? { type: "text", text: PDF_OMITTED }
        : c;
  const strip = (m: NeutralMessage): NeutralMessage => ({
    ...m,
    content: m.content.map((p) =>
      p.type === "tool_result"
        ? { ...p, content: p.content.map(stripContent) as typeof p.content }
        : (stripContent(p) as NeutralPart),
    ),
  });
  const answers = Object.fromEntries(
    Object.entries(state.pending?.answers ?? {}).map(([id, a]) => [
      id,
      {
        ...a,
        part: { ...a.part, content: a.part.content.map(stripContent) as typeof a.part.content },
      },
    ]),
  );
  return {
    ...state,
    messages: state.messages.map(strip),
    ...(state.pending && { pending: { ...state.pending, answers } }),
  };
}

const IMAGE_OMITTED = "[image omitted after a restart]";
const PDF_OMITTED = "[PDF omitted after a restart]";

/**
 * Stores the loop's state with the last event shown at that point: a step run again after a
 * restart takes the answer back to what clients showed at its checkpoint.
 */
export function saveCheckpoint(store: ConversationStore, turnId: string, state: LoopState): void {
  store.saveCheckpoint(turnId, { seq: store.lastSeq(), state: checkpointable(state) });
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

/** The stored checkpoint of a turn, or null when there is none (or it cannot be trusted). */
export function loadCheckpoint(store: ConversationStore, turnId: string): Checkpoint | null {
  const parsed = CheckpointRow.safeParse(store.loadCheckpoint(turnId));
  return parsed.success
    ? { seq: parsed.data.seq, state: parsed.data.state as unknown as LoopState }
    : null;
}
