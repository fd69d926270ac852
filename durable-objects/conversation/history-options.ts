// What a turn needs from this object's storage to build its history: earlier tool results and
// the characters-per-token ratio learned from the provider's reported usage (per model).
import type { ConversationStore } from "./store";
import { parseStoredResult } from "./history";
import type { ConversationInfo, TurnInput } from "./turn";

const ratioKey = (c: ConversationInfo) => `chars_per_token:${c.provider}:${c.model}`;

export function historyOptions(
  store: ConversationStore,
  conversation: ConversationInfo,
): Pick<TurnInput, "toolResult" | "charsPerToken" | "learnedCharsPerToken"> {
  const learned = Number(store.getMeta(ratioKey(conversation)));
  return {
    toolResult: (callId) => parseStoredResult(store.toolCall("id", callId)?.result),
    ...(learned > 0 && { charsPerToken: learned }),
    learnedCharsPerToken: (ratio) => store.setMeta(ratioKey(conversation), ratio.toFixed(3)),
  };
}
