// The user's role in each conversation as the conversation last told it (its socket's presence),
// kept in localStorage per user. A page reloaded offline cannot read its members, so without it
// the message box would stay closed (waiting for the role) in the user's own conversations too;
// with it, the box opens for one they could write to and what they type waits in the outbox. A
// guess until the server answers: the live or loaded role wins and is remembered instead.
import { z } from "zod";
import { ConversationRole } from "../../../durable-objects/protocol/roles";
import { type BrowserStore as Store, forgetStored, readStored, writeStored } from "../stored-json";

const PREFIX = "thinking-chat:roles:";
/** Conversations remembered per user, the most recently told kept. */
const KEPT = 200;

const key = (userId: string) => `${PREFIX}${encodeURIComponent(userId)}`;
/** [conversation id, role] pairs, the most recently told last. */
const Remembered = z.array(z.tuple([z.string(), ConversationRole]));
type Remembered = z.infer<typeof Remembered>;

/** What is kept; a value that is not one (an old format, a hand edit) holds nothing. */
const read = (store: Store | null, userId: string): Remembered =>
  readStored(store, key(userId), Remembered) ?? [];

export function rememberedRole(
  store: Store | null,
  userId: string,
  conversationId: string,
): ConversationRole | null {
  return read(store, userId).find(([id]) => id === conversationId)?.[1] ?? null;
}

export function rememberRole(
  store: Store | null,
  userId: string,
  conversationId: string,
  role: ConversationRole,
): void {
  const kept = read(store, userId).filter(([id]) => id !== conversationId);
  const told: Remembered[number] = [conversationId, role];
  const next = [...kept, told].slice(-KEPT);
  // Storage full or refused: a reload offline then waits for the role, as before.
  writeStored(store, key(userId), next);
}

/** Signing out forgets the user's roles with the rest of what the browser kept for them. */
export function forgetRoles(store: Store | null, userId: string): void {
  forgetStored(store, key(userId));
}
