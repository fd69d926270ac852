// What is typed in a conversation's message box, and the files uploaded for it (their chips),
// kept in the tab's sessionStorage until sent or removed: a reload (the "new version is ready"
// one, or Reload on a part that could not load) brings them back. Per tab, as the box is;
// signing out erases them.
import { z } from "zod";
import { Artifact } from "../../../durable-objects/protocol/rest";
import { type BrowserStore as Store, forgetStored, readStored, writeStored } from "../stored-json";

/** The tab's sessionStorage, where the browser lets us use it (private modes may not). */
export function tabStore(): Storage | undefined {
  try {
    return typeof sessionStorage === "undefined" ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}

/** Every key here starts with it (signing out erases them all). */
const PREFIX = "thinking-chat:draft";
const key = (conversationId: string) => `${PREFIX}:${conversationId}`;
const filesKey = (conversationId: string) => `${PREFIX}-files:${conversationId}`;
const Files = z.array(Artifact);

export function draftOf(store: Store | undefined, conversationId: string): string {
  try {
    return store?.getItem(key(conversationId)) ?? "";
  } catch {
    return "";
  }
}

export function keepDraft(store: Store | undefined, conversationId: string, text: string): void {
  try {
    if (text) store?.setItem(key(conversationId), text);
    else store?.removeItem(key(conversationId));
  } catch {
    // Storage full or refused: the draft lives as long as the page, as before.
  }
}

/** The stored files whose chips wait for the conversation's next message; none if unreadable. */
export function draftFilesOf(store: Store | undefined, conversationId: string): Artifact[] {
  return readStored(store, filesKey(conversationId), Files) ?? [];
}

export function keepDraftFiles(
  store: Store | undefined,
  conversationId: string,
  files: readonly Artifact[],
): void {
  // Storage full or refused: the chips live as long as the page, as before.
  if (files.length) writeStored(store, filesKey(conversationId), files);
  else forgetStored(store, filesKey(conversationId));
}

/** Signing out: nothing typed stays for whoever signs in next in this tab. */
export function eraseDrafts(store: Pick<Storage, "key" | "length" | "removeItem"> | undefined) {
  if (!store) return;
  try {
    const keys: string[] = [];
    for (let i = 0; i < store.length; i++) {
      const k = store.key(i);
      if (k?.startsWith(PREFIX)) keys.push(k);
    }
    for (const k of keys) store.removeItem(k);
  } catch {
    // Refused storage holds nothing to erase.
  }
}
