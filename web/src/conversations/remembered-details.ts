// The conversations' details (title, provider, model, settings), the conversation list, "Shared
// with you" and the providers' list as the server last told them, kept in localStorage per user.
// A page reloaded offline cannot read them, so without these its lists would be empty and its
// header (title, model) and Settings could not show; with them the lists show as last seen and
// Settings opens on what the app last knew, saying its changes wait for the network. A guess
// until the server answers: what it loads wins and is remembered instead. Erased on sign-out.
// Storage refused or full keeps nothing: offline, the page then shows less, as before.
import { z } from "zod";
import {
  Conversation,
  ConversationListItem,
  ProviderInfo,
} from "../../../durable-objects/protocol/rest";
import { SharedConversation } from "../../../durable-objects/protocol/sharing";
import { type BrowserStore as Store, forgetStored, readStored, writeStored } from "../stored-json";

const CONVERSATIONS = "thinking-chat:conversations:";
const PROVIDERS = "thinking-chat:providers:";
const LIST = "thinking-chat:list:";
const SHARED = "thinking-chat:shared:";
/** Conversations remembered per user, the most recently told kept. */
const KEPT = 50;

const key = (prefix: string, userId: string) => `${prefix}${encodeURIComponent(userId)}`;
const Conversations = z.array(Conversation);
const Providers = z.array(ProviderInfo);
const List = z.array(ConversationListItem);
const Shared = z.array(SharedConversation);

export function rememberedConversation(
  store: Store | null,
  userId: string,
  conversationId: string,
): Conversation | null {
  const kept = readStored(store, key(CONVERSATIONS, userId), Conversations) ?? [];
  const opened = kept.find((c) => c.id === conversationId);
  if (opened) return opened;
  // One never opened here: its row in the list (or in "Shared with you") holds the same details.
  const listed = rememberedList(store, userId).find((c) => c.id === conversationId);
  if (listed) {
    const { snippet: _snippet, role: _role, ...details } = listed;
    return details;
  }
  const shared = rememberedShared(store, userId).find((s) => s.conversation.id === conversationId);
  return shared?.conversation ?? null;
}

export function rememberConversation(
  store: Store | null,
  userId: string,
  conversation: Conversation,
): void {
  const kept = readStored(store, key(CONVERSATIONS, userId), Conversations) ?? [];
  const others = kept.filter((c) => c.id !== conversation.id);
  writeStored(store, key(CONVERSATIONS, userId), [...others, conversation].slice(-KEPT));
}

export function rememberedProviders(store: Store | null, userId: string): ProviderInfo[] {
  return readStored(store, key(PROVIDERS, userId), Providers) ?? [];
}

export function rememberProviders(
  store: Store | null,
  userId: string,
  providers: ProviderInfo[],
): void {
  writeStored(store, key(PROVIDERS, userId), providers);
}

/** The user's conversation list (unsearched) as last loaded; empty when none was kept. */
export function rememberedList(store: Store | null, userId: string): ConversationListItem[] {
  return readStored(store, key(LIST, userId), List) ?? [];
}

export function rememberList(
  store: Store | null,
  userId: string,
  items: ConversationListItem[],
): void {
  writeStored(store, key(LIST, userId), items);
}

/** The conversations shared with the user as last loaded ("Shared with you"). */
export function rememberedShared(store: Store | null, userId: string): SharedConversation[] {
  return readStored(store, key(SHARED, userId), Shared) ?? [];
}

export function rememberShared(
  store: Store | null,
  userId: string,
  items: SharedConversation[],
): void {
  writeStored(store, key(SHARED, userId), items);
}

/** Signing out forgets the user's conversations, list and providers with the rest. */
export function forgetDetails(store: Store | null, userId: string): void {
  for (const prefix of [CONVERSATIONS, PROVIDERS, LIST, SHARED])
    forgetStored(store, key(prefix, userId));
}
