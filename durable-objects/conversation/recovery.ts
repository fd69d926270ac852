// Picking a turn up again when the object starts with one marked running (an eviction, a crash,
// a deploy cut it off). Rules, in order:
// - a turn that never began (no turn_started: the model was never called) simply runs;
// - a tool call that started but stored no result is not run again: it is recorded as
//   interrupted and the model is told;
// - the turn resumes from its last checkpoint; a step cut off while the model streamed runs again
//   and a `step_restarted` event takes the answer back to what it showed at the checkpoint, so
//   no client shows the step's text twice;
// - a turn that keeps dying ends as interrupted with what the user last saw, and says why;
// - the model call the restart cut off is counted (estimated), once, whichever way it goes on.
import type { NewServerEvent, ServerEvent } from "../protocol/wire";
import type { PriceTable } from "../loop/prices";
import type { LoopState } from "../loop/types";
import { countCallCutOff } from "./call-under-way";
import { loadCheckpoint } from "./loop-storage";
import type { ConversationStore, TurnRow } from "./store";
import type { FinalOutcome } from "./turn";
import { foldedContent, turnStarted } from "./turn-log";

/** How often a turn cut off by restarts is resumed before it ends as interrupted. */
export const MAX_RESUMES = 2;

export const INTERRUPTED_CALL_MESSAGE =
  "The call was interrupted (the service restarted) and was not run again; its result is unknown.";

export interface RecoveryHost {
  readonly store: ConversationStore;
  emit(event: NewServerEvent): ServerEvent;
  completeTurn(turn: TurnRow, outcome: FinalOutcome): void;
  /** Runs the turn in the background, from `resumed` when given (else from its start). */
  startTurn(turn: TurnRow, resumed?: LoopState): void;
  /** A turn waiting for the user's approval was not cut off: it waits on. */
  isParked(turn: TurnRow): boolean;
  /** The prices the call cut off is counted at (read only when there is one). */
  prices(): PriceTable;
}

export function recoverInterruptedTurn(host: RecoveryHost): void {
  const { store } = host;
  const turn = store.runningTurn();
  if (!turn || host.isParked(turn)) return;
  const checkpoint = loadCheckpoint(store, turn.id);
  // The provider was paid for the call the restart cut off: it counts, in the turn's budgets too.
  // Its checkpoint's figures lack the calls cut off since (a turn without one gets them as it
  // starts again: the Durable Object reads them, cutSinceCheckpoint).
  const used = countCallCutOff(host, turn, checkpoint?.state.usage);
  if (used && checkpoint) checkpoint.state.usage = used;
  const started = turnStarted(store, turn);
  // Counted apart: a turn that never began has used none of its resumes.
  const attemptsKey = attemptsKeyOf(started ? "resumes" : "starts", turn.id);
  const attempts = Number(store.getMeta(attemptsKey) ?? "0");
  store.setMeta(attemptsKey, String(attempts + 1));

  if (!started) {
    if (attempts < MAX_RESUMES) return host.startTurn(turn);
    host.emit({
      type: "turn_started",
      turnId: turn.id,
      messageId: turn.assistantMessageId,
      userMessageId: turn.userMessageId,
      order: turn.assistantSeq,
      provider: turn.options.provider ?? "",
      model: turn.options.model ?? "",
    });
    return host.completeTurn(turn, {
      content: [],
      status: "failed",
      error: {
        code: "restarted",
        message: `The service restarted ${attempts + 1} times before this answer could start. Send the message again.`,
      },
    });
  }

  markUnfinishedCallsInterrupted(host, turn);
  if (attempts >= MAX_RESUMES) {
    host.emit({
      type: "notice",
      level: "error",
      message: `The service restarted ${attempts + 1} times during this answer, so it stops here with what it had shown. Send the message again to retry.`,
    });
    return host.completeTurn(turn, {
      content: foldedContent(store, turn),
      status: "interrupted",
    });
  }
  host.emit({
    type: "notice",
    level: "warning",
    message: "The service restarted during this answer; continuing from the last completed step.",
  });
  const state = checkpoint?.state;
  // A step checkpointed after its model call continues at its tool calls: nothing re-streams.
  if (!state?.pending && !state?.final) {
    const atCheckpoint = foldedContent(store, turn, checkpoint?.seq ?? turn.startSeq);
    if (JSON.stringify(atCheckpoint) !== JSON.stringify(foldedContent(store, turn))) {
      host.emit({
        type: "step_restarted",
        turnId: turn.id,
        messageId: turn.assistantMessageId,
        step: (state?.step ?? 0) + 1,
        content: atCheckpoint,
      });
    }
  }
  host.startTurn(turn, state);
}

const attemptsKeyOf = (kind: "resumes" | "starts", turnId: string) => `${kind}:${turnId}`;

/** Drops a finished turn's restart counters: only a running turn is ever picked up again. */
export function forgetRecoveryAttempts(store: ConversationStore, turnId: string): void {
  store.deleteMeta(attemptsKeyOf("starts", turnId));
  store.deleteMeta(attemptsKeyOf("resumes", turnId));
}

function markUnfinishedCallsInterrupted(host: RecoveryHost, turn: TurnRow): void {
  for (const call of host.store.unfinishedToolCalls(turn.id)) {
    host.store.finishToolCall(call.id, "failed", {
      forModel: [{ type: "text", text: INTERRUPTED_CALL_MESSAGE }],
      summary: "interrupted",
      isError: true,
    });
    host.emit({
      type: "tool_result",
      messageId: turn.assistantMessageId,
      callId: call.id,
      isError: true,
      summary: "interrupted",
    });
  }
}
