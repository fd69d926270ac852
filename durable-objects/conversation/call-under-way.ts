// The model call a turn has under way, noted in the object's storage as it starts and dropped once
// it is counted. A restart (a deploy, an eviction) kills the call before its usage is known, yet
// the provider has read its input and written some output: the note survives the restart, and
// the turn's recovery counts the call from it, estimated (input as the context fitter counted
// it, output from the deltas the log holds since the call began), before the step runs again.
import { z } from "zod";
import type { PriceTable } from "../loop/prices";
import type { CallUnderWay } from "../loop/types";
import { pricedCall } from "../loop/usage-meter";
import { addCall, EMPTY_USAGE, type UsageTotals } from "../protocol/usage";
import type { NewServerEvent } from "../protocol/wire";
import { enqueueUsage } from "./outbox";
import type { ConversationStore, TurnRow } from "./store";

const Note = z.object({
  step: z.number().int(),
  model: z.string(),
  inputTokens: z.number().int().min(0),
  charsPerToken: z.number().positive(),
  /** The log's last event when the call began: the call's output is the deltas after it. */
  afterSeq: z.number().int(),
  userId: z.string(),
  conversationId: z.string(),
  provider: z.string(),
});

const keyOf = (turnId: string) => `call:${turnId}`;

/**
 * Notes `call` (or drops the note) for `turn`; the rest of its usage row comes with it (`row`'s
 * provider is the conversation's, for a call that names none).
 */
export function noteCallUnderWay(
  store: ConversationStore,
  turn: TurnRow,
  row: { userId: string; conversationId: string; provider: string },
  call: CallUnderWay | null,
): void {
  if (!call) return store.deleteMeta(keyOf(turn.id));
  // A fallback's call names its own provider.
  const { provider, ...rest } = call;
  const note: z.infer<typeof Note> = {
    ...rest,
    ...row,
    ...(provider && { provider }),
    afterSeq: store.lastSeq(),
  };
  store.setMeta(keyOf(turn.id), JSON.stringify(note));
}

export function dropCallNote(store: ConversationStore, turnId: string): void {
  store.deleteMeta(keyOf(turnId));
}

/**
 * Counts the call a restart cut off, if the turn had one under way: its usage row (marked
 * estimated) goes to the outbox, a `usage_updated` event to clients. Returns what the turn has
 * now used (`usedSoFar` with the call), or null when there was no such call.
 */
export function countCallCutOff(
  host: {
    store: ConversationStore;
    emit: (event: NewServerEvent) => void;
    prices: () => PriceTable;
  },
  turn: TurnRow,
  usedSoFar: UsageTotals | undefined,
): UsageTotals | null {
  const { store } = host;
  const stored = store.getMeta(keyOf(turn.id));
  if (stored === null) return null;
  dropCallNote(store, turn.id);
  const note = Note.safeParse(JSON.parse(stored));
  if (!note.success) return null;
  const { step, model, inputTokens, charsPerToken, afterSeq, ...row } = note.data;
  const outputTokens = Math.ceil(streamedChars(store, turn, afterSeq) / charsPerToken);
  const call = pricedCall({ type: "usage", inputTokens, outputTokens }, model, host.prices(), true);
  enqueueUsage(store, {
    ...row,
    turnId: turn.id,
    messageId: turn.assistantMessageId,
    step,
    model,
    ...call,
  });
  const used = addCall(usedSoFar ?? EMPTY_USAGE, call);
  host.emit({
    type: "usage_updated",
    turnId: turn.id,
    messageId: turn.assistantMessageId,
    step,
    model,
    call: addCall(EMPTY_USAGE, call),
    turn: used,
    estimated: true,
  });
  return used;
}

/** Characters of text and reasoning the answer streamed after `afterSeq`. */
function streamedChars(store: ConversationStore, turn: TurnRow, afterSeq: number): number {
  return (
    store.sql
      .exec<{ n: number | null }>(
        `SELECT SUM(length(json_extract(body, '$.delta'))) AS n FROM conv_events
         WHERE seq > ? AND delta_of = ?`,
        afterSeq,
        turn.assistantMessageId,
      )
      .one().n ?? 0
  );
}
