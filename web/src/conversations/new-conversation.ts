// A new conversation is created by its first socket (`?new=1` on an id made here), not by a
// request before it: the view opens at once, and the socket that creates the conversation is the
// one its messages go over. Until that socket is synced, the conversation exists only here; REST
// calls about it wait for its creation (api.ts), so none of them finds it missing.
import type { Conversation, ConversationMode } from "../../../durable-objects/protocol/rest";

export interface NewConversationChoice {
  title?: string;
  templateId?: string;
  provider?: string;
  model?: string;
  mode: ConversationMode;
}

interface Pending {
  conversation: Conversation;
  query: string;
  created: Promise<void>;
  settle: (refusal?: string) => void;
}

const pending = new Map<string, Pending>();

/** What the user chose, as a conversation shown at once; its first socket creates it. */
export function beginNewConversation(
  choice: NewConversationChoice,
  now = Date.now(),
): Conversation {
  const id = crypto.randomUUID();
  const conversation: Conversation = {
    id,
    title: choice.title ?? "New conversation",
    provider: choice.provider ?? "",
    model: choice.model ?? "",
    mode: choice.mode,
    settings: {},
    createdAt: now,
    updatedAt: now,
  };
  const query = new URLSearchParams({ new: "1" });
  for (const key of ["title", "templateId", "provider", "model", "mode"] as const) {
    const value = choice[key];
    if (value) query.set(key, value);
  }
  let settle: Pending["settle"] = () => undefined;
  const created = new Promise<void>((resolve, reject) => {
    settle = (refusal) => (refusal === undefined ? resolve() : reject(new Error(refusal)));
  });
  // Nobody may be waiting when a creation is refused: that is not an unhandled rejection.
  created.catch(() => undefined);
  pending.set(id, { conversation, query: query.toString(), created, settle });
  return conversation;
}

/** The query that makes a socket create the conversation, while it is not created yet. */
export const creationQuery = (id: string): string | null => pending.get(id)?.query ?? null;

/** The conversation as chosen, while it is not created yet. */
export const pendingConversation = (id: string): Conversation | null =>
  pending.get(id)?.conversation ?? null;

/** Settles when the conversation exists (at once for one that is not new); rejects if refused. */
export const creationOf = (id: string): Promise<void> =>
  pending.get(id)?.created ?? Promise.resolve();

/** Its socket is synced: the conversation exists. */
export function conversationCreated(id: string): void {
  pending.get(id)?.settle();
  pending.delete(id);
}

/** Its socket said why it could not create it (`message`). */
export function creationRefused(id: string, message: string): void {
  pending.get(id)?.settle(message);
  pending.delete(id);
}

/** The conversation a path under /api/conversations/ is about, if any. */
export const conversationOfPath = (path: string): string | null =>
  /^\/api\/conversations\/([^/?#]+)/.exec(path)?.[1] ?? null;
