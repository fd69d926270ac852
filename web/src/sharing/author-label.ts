// What a user message shows as its author: nothing in a conversation only one person writes in,
// "You" for your own messages, the name for everyone else's.
import type { TranscriptMessage } from "../../../durable-objects/protocol/transcript";

export function authorLabel(
  message: TranscriptMessage,
  me: string | null,
  shared: boolean,
): string | undefined {
  if (!shared || message.role !== "user" || !message.author) return undefined;
  return message.author.id === me ? "You" : message.author.name;
}

/** Whether several people are in this conversation: someone else is here, or wrote in it. */
export function isShared(
  messages: readonly TranscriptMessage[],
  peopleHere: number,
  sharedWithOthers: boolean,
): boolean {
  if (sharedWithOthers || peopleHere > 1) return true;
  const authors = new Set(messages.flatMap((m) => (m.author ? [m.author.id] : [])));
  return authors.size > 1;
}
