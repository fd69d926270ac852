// The last messages seen of each conversation, kept in localStorage per user, so a page reloaded
// offline shows them rather than an empty conversation: the socket's replay is live only. A
// stand-in until the socket's catch-up replaces it. Bounded (the last CONVERSATIONS opened, the
// last MESSAGES of each, at most CHARS of JSON each) and zod-checked as it is read back; the
// thinking timeline (activity) is left out. Erased on sign-out. Storage refused or full keeps
// nothing: the page then shows what it did before, an empty conversation until it reconnects.
import { z } from "zod";
import {
  MessagePart,
  MessageRole,
  MessageStatus,
} from "../../../durable-objects/protocol/messages";
import type { TranscriptMessage } from "../../../durable-objects/protocol/transcript";
import { type BrowserStore as Store, forgetStored, readStored, writeStored } from "../stored-json";

const PREFIX = "thinking-chat:transcripts:";
export const CONVERSATIONS = 20;
export const MESSAGES = 30;
/** A few long answers fill it: 20 conversations stay well under a browser's ~5 MB. */
export const CHARS = 60_000;

const Message = z.object({
  id: z.string(),
  order: z.number().int(),
  role: MessageRole,
  content: z.array(MessagePart),
  status: MessageStatus,
  author: z.object({ id: z.string(), name: z.string() }).optional(),
});
type Message = z.infer<typeof Message>;
const Kept = z.array(z.object({ conversationId: z.string(), messages: z.array(Message) }));

const key = (userId: string) => `${PREFIX}${encodeURIComponent(userId)}`;

/** The messages last seen in the conversation, oldest first; null when none were kept. */
export function rememberedTranscript(
  store: Store | null,
  userId: string,
  conversationId: string,
): TranscriptMessage[] | null {
  const kept = readStored(store, key(userId), Kept) ?? [];
  return kept.find((k) => k.conversationId === conversationId)?.messages ?? null;
}

/** Keeps the conversation's finished messages (the newest that fit), as the most recent one. */
export function rememberTranscript(
  store: Store | null,
  userId: string,
  conversationId: string,
  messages: readonly TranscriptMessage[],
): void {
  const kept: Message[] = [];
  let chars = 0;
  // Newest first, until the bounds; a message still streaming is not an answer yet.
  for (const m of [...messages].reverse()) {
    if (m.status === "streaming") continue;
    const message: Message = {
      id: m.id,
      order: m.order,
      role: m.role,
      content: m.content,
      status: m.status,
      ...(m.author && { author: m.author }),
    };
    chars += JSON.stringify(message).length;
    if (kept.length >= MESSAGES || chars > CHARS) break;
    kept.unshift(message);
  }
  const others = (readStored(store, key(userId), Kept) ?? []).filter(
    (k) => k.conversationId !== conversationId,
  );
  writeStored(
    store,
    key(userId),
    [...others, { conversationId, messages: kept }].slice(-CONVERSATIONS),
  );
}

/** A conversation deleted, left or no longer shared with the user: what was kept of it goes. */
export function forgetTranscript(store: Store | null, userId: string, conversationId: string) {
  const kept = readStored(store, key(userId), Kept);
  if (kept?.some((k) => k.conversationId === conversationId))
    writeStored(
      store,
      key(userId),
      kept.filter((k) => k.conversationId !== conversationId),
    );
}

/** Signing out forgets every transcript the user's conversations left here. */
export function forgetTranscripts(store: Store | null, userId: string): void {
  forgetStored(store, key(userId));
}
