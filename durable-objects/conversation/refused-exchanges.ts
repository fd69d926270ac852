// Questions whose answer the provider refused (its filter, or the model's own refusal), left out
// of what the model sees on later turns. Anthropic says a conversation must be reset after a
// refusal, or the refusal carries on: with the exchange in its history, the model keeps declining
// whatever comes next. The user still sees both messages; the model no longer does.
import type { ChatMessage } from "../protocol/messages";
import type { ConversationStore } from "./store";

const KEY = "refused_exchanges";

/** The ids of the refused questions and answers (one meta value: read once, held in memory). */
function refusedIds(store: ConversationStore): string[] {
  const raw = store.getMeta(KEY);
  return raw ? (JSON.parse(raw) as string[]) : [];
}

/** A turn's question and answer, once the provider refused to answer it. */
export function markRefused(store: ConversationStore, userMessageId: string, answerId: string) {
  store.setMeta(KEY, JSON.stringify([...refusedIds(store), userMessageId, answerId]));
}

/** The history without the refused exchanges. */
export function withoutRefused(store: ConversationStore, messages: ChatMessage[]): ChatMessage[] {
  const refused = refusedIds(store);
  if (refused.length === 0) return messages;
  const left = new Set(refused);
  return messages.filter((m) => !left.has(m.id));
}
