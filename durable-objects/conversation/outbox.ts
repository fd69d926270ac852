// The object's outbox: what it has written that D1 must also hold (messages, artifacts, usage),
// kept in the object's SQLite until outbox-flush.ts writes it to D1, so nothing is lost to a
// restart or a D1 error in between.
import type { OutboxItem } from "./outbox-flush";
import type { ConversationStore } from "./store";

export const PLACEHOLDER_TITLE = "New conversation";

export function enqueue(store: ConversationStore, item: OutboxItem): void {
  const { kind, ...payload } = item;
  store.enqueue(kind, payload);
}

type UsageRow = Extract<OutboxItem, { kind: "usage" }>["row"];

/** A model call's usage row, given its id and the time it is written. */
export function enqueueUsage(
  store: ConversationStore,
  row: Omit<UsageRow, "id" | "createdAt">,
): void {
  enqueue(store, {
    kind: "usage",
    row: { id: crypto.randomUUID(), ...row, createdAt: Date.now() },
  });
}
