// The conversations' details (title, provider, model, settings) and the providers' list as the
// server last told them, kept in localStorage per user. A page reloaded offline cannot read them,
// so without these its header (title, model) and Settings could not show; with them Settings
// opens on what the app last knew, and says its changes wait for the network. A guess until the
// server answers: what it loads wins and is remembered instead. Erased on sign-out.
import { z } from "zod";
import { Conversation, ProviderInfo } from "../../../durable-objects/protocol/rest";

type Store = Pick<Storage, "getItem" | "setItem" | "removeItem">;

const CONVERSATIONS = "thinking-chat:conversations:";
const PROVIDERS = "thinking-chat:providers:";
/** Conversations remembered per user, the most recently told kept. */
const KEPT = 50;

const key = (prefix: string, userId: string) => `${prefix}${encodeURIComponent(userId)}`;
const Conversations = z.array(Conversation);
const Providers = z.array(ProviderInfo);

/** What is kept; a value that is not one (an old format, a hand edit) holds nothing. */
function read<T>(store: Store | null, storeKey: string, schema: z.ZodType<T>): T | null {
  try {
    const raw = store?.getItem(storeKey);
    if (!raw) return null;
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
function write(store: Store | null, storeKey: string, value: unknown): void {
  try {
    store?.setItem(storeKey, JSON.stringify(value));
  } catch {
    // Storage full or refused: offline, the page then shows less, as before.
  }
}

export function rememberedConversation(
  store: Store | null,
  userId: string,
  conversationId: string,
): Conversation | null {
  const kept = read(store, key(CONVERSATIONS, userId), Conversations) ?? [];
  return kept.find((c) => c.id === conversationId) ?? null;
}

export function rememberConversation(
  store: Store | null,
  userId: string,
  conversation: Conversation,
): void {
  const kept = read(store, key(CONVERSATIONS, userId), Conversations) ?? [];
  const others = kept.filter((c) => c.id !== conversation.id);
  write(store, key(CONVERSATIONS, userId), [...others, conversation].slice(-KEPT));
}

export function rememberedProviders(store: Store | null, userId: string): ProviderInfo[] {
  return read(store, key(PROVIDERS, userId), Providers) ?? [];
}

export function rememberProviders(
  store: Store | null,
  userId: string,
  providers: ProviderInfo[],
): void {
  write(store, key(PROVIDERS, userId), providers);
}

/** Signing out forgets the user's conversations and providers with the rest. */
export function forgetDetails(store: Store | null, userId: string): void {
  try {
    store?.removeItem(key(CONVERSATIONS, userId));
    store?.removeItem(key(PROVIDERS, userId));
  } catch {
    // Refused storage holds nothing to forget.
  }
}
