// A turn as its events tell it: whether it began, and what its answer showed at a given point.
// Folded with the clients' own fold, so "what the user saw" has one definition.
import type { MessagePart } from "../protocol/messages";
import { applyEvent, emptyTranscript } from "../protocol/transcript";
import type { ServerEvent } from "../protocol/wire";
import type { ConversationStore, TurnRow } from "./store";

const PAGE = 1000;

/** The events from the one that opened the turn up to `upTo` (inclusive), page by page. */
function* turnEvents(store: ConversationStore, turn: TurnRow, upTo = Infinity) {
  let after = turn.startSeq - 1;
  for (;;) {
    const page = store.eventsAfter(after, PAGE);
    for (const e of page) {
      if (e.seq > upTo) return;
      yield e;
    }
    const last = page.at(-1);
    if (!last || page.length < PAGE) return;
    after = last.seq;
  }
}

export function turnStarted(store: ConversationStore, turn: TurnRow): boolean {
  for (const e of turnEvents(store, turn)) if (isStartOf(turn, e)) return true;
  return false;
}

const isStartOf = (turn: TurnRow, e: ServerEvent) =>
  e.type === "turn_started" && e.turnId === turn.id;

/** What clients showed of the turn's answer once the event `upTo` (default: the last) arrived. */
export function foldedContent(
  store: ConversationStore,
  turn: TurnRow,
  upTo = Infinity,
): MessagePart[] {
  let t = emptyTranscript();
  for (const e of turnEvents(store, turn, upTo)) t = applyEvent(t, e);
  return t.messages.find((m) => m.id === turn.assistantMessageId)?.content ?? [];
}
