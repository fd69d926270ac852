// Questions whose answer the provider refused (its filter, or the model's own refusal), left out
// of what the model sees on later turns. Anthropic says a conversation must be reset after a
// refusal, or the refusal carries on: with the exchange in its history, the model keeps declining
// whatever comes next. The user still sees both messages; the model no longer does.
import type { ChatMessage } from "../protocol/messages";
import { addToMetaList, metaList } from "./meta-list";
import type { ConversationStore } from "./store";

const KEY = "refused_exchanges";

/** A turn's question and answer, once the provider refused to answer it. */
export function markRefused(store: ConversationStore, userMessageId: string, answerId: string) {
  addToMetaList(store, KEY, userMessageId, answerId);
}

/** The history without the refused exchanges. */
export function withoutRefused(store: ConversationStore, messages: ChatMessage[]): ChatMessage[] {
  const refused = metaList(store, KEY);
  if (refused.length === 0) return messages;
  const left = new Set(refused);
  return messages.filter((m) => !left.has(m.id));
}
