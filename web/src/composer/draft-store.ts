// What is typed in a conversation's message box, kept in the tab's sessionStorage until it is
// sent or emptied: a reload (the "new version is ready" one, or Reload on a part that could not
// load) brings it back. Per tab, as the box is; signing out erases it.
type Store = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/** The tab's sessionStorage, where the browser lets us use it (private modes may not). */
export function tabStore(): Storage | undefined {
  try {
    return typeof sessionStorage === "undefined" ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}

const PREFIX = "thinking-chat:draft:";
const key = (conversationId: string) => `${PREFIX}${conversationId}`;

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
