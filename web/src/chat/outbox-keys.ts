// Where outbox.ts keeps a user's unsent messages, and erasing them on sign-out. Apart from the
// outbox (no zod, no wire schemas): the first screen's script imports this for its sign-out.
const PREFIX = "thinking-chat:outbox:";

/** A store whose keys can be listed (localStorage). */
export type ListableStore = Pick<Storage, "key" | "length" | "removeItem">;

const userPrefix = (userId: string) => `${PREFIX}${encodeURIComponent(userId)}:`;

export const outboxKey = (userId: string, conversationId: string) =>
  `${userPrefix(userId)}${conversationId}`;

/** Erases every outbox of a user, in every conversation. */
export function eraseOutboxes(store: ListableStore | null, userId: string): void {
  if (!store) return;
  const mine = userPrefix(userId);
  try {
    const keys: string[] = [];
    for (let i = 0; i < store.length; i++) {
      const key = store.key(i);
      if (key?.startsWith(mine)) keys.push(key);
    }
    for (const key of keys) store.removeItem(key);
  } catch {
    // Refused storage holds nothing to erase.
  }
}
