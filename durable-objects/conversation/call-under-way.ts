// The model call a turn has under way, noted in the object's storage as it starts and dropped once
// it is counted. A restart (a deploy, an eviction) kills the call before its usage is known, yet
// the provider has read its input and written some output: the note survives the restart, and
// the turn's recovery counts the call from it, estimated (input as the context fitter counted
// it, output from the deltas the log holds since the call began), before the step runs again.
import { z } from "zod";
import type { PriceTable } from "../loop/prices";
import type { CallUnderWay } from "../loop/types";
import { pricedCall } from "../loop/usage-meter";
import { addCall, EMPTY_USAGE, sumUsage, UsageTotals } from "../protocol/usage";
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
 * estimated) goes to the outbox, a `usage_updated` event to clients. The calls cut off since the
 * turn's last checkpoint are kept apart until its next one, which then holds them: a turn cut off
 * again before that still counts them. Returns what the turn has used: `checkpointed` (its last
 * checkpoint's figures) and every call cut off since.
 */
export function countCallCutOff(
  host: {
    store: ConversationStore;
    emit: (event: NewServerEvent) => void;
    prices: () => PriceTable;
  },
  turn: TurnRow,
  checkpointed: UsageTotals | undefined,
): UsageTotals | undefined {
  const { store } = host;
  const earlier = cutSinceCheckpoint(store, turn.id);
  const stored = store.getMeta(keyOf(turn.id));
  dropCallNote(store, turn.id);
  const note = stored === null ? null : Note.safeParse(JSON.parse(stored));
  if (!note?.success)
    return earlier ? sumUsage([checkpointed ?? EMPTY_USAGE, earlier]) : checkpointed;
  const { step, model, inputTokens, charsPerToken, afterSeq, ...row } = note.data;
  const outputTokens = Math.ceil(streamedChars(store, turn, afterSeq) / charsPerToken);
  const call = pricedCall(
    { type: "usage", inputTokens, outputTokens },
    model,
    host.prices(),
    "estimated",
  );
  enqueueUsage(store, {
    ...row,
    turnId: turn.id,
    messageId: turn.assistantMessageId,
    step,
    model,
    ...call,
  });
  const cut = addCall(earlier ?? EMPTY_USAGE, call);
  store.setMeta(cutKeyOf(turn.id), JSON.stringify(cut));
  const used = sumUsage([checkpointed ?? EMPTY_USAGE, cut]);
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

const cutKeyOf = (turnId: string) => `cut-usage:${turnId}`;

/** The calls cut off since the turn's last checkpoint (which does not hold them), if any. */
export function cutSinceCheckpoint(
  store: ConversationStore,
  turnId: string,
): UsageTotals | undefined {
  const stored = store.getMeta(cutKeyOf(turnId));
  const parsed = stored === null ? null : UsageTotals.safeParse(JSON.parse(stored));
  return parsed?.success ? parsed.data : undefined;
}

/** A checkpoint now holds the calls cut off before it (or the turn is over). */
export function forgetCutCalls(store: ConversationStore, turnId: string): void {
  store.deleteMeta(cutKeyOf(turnId));
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
