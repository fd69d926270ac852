// The user this browser's session check last confirmed. A returning visit draws the app for them
// at once, while the check (the page's first request) is on its way: the check still decides. A
// refused session (401) or a sign-out forgets them and the sign-in shows; an unreachable server
// does not (nothing says the session ended). Only the id and name are kept, no credential.
// No zod here: the page's first requests (start-first-requests.ts) read this before the rest of
// the script is evaluated.
import type { User } from "./api";

const KEY = "thinking-chat:last-user";

type Store = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/** The remembered user, or null (none, or a stored value that is not one). */
export function lastUser(store: Store | null): User | null {
  try {
    const raw = store?.getItem(KEY);
    if (!raw) return null;
    const stored: unknown = JSON.parse(raw);
    if (typeof stored !== "object" || stored === null) return null;
    const { id, name } = stored as Record<string, unknown>;
    return typeof id === "string" && id && typeof name === "string" ? { id, name } : null;
  } catch {
    return null;
  }
}

export function rememberUser(store: Store | null, user: User): void {
  try {
    store?.setItem(KEY, JSON.stringify({ id: user.id, name: user.name }));
  } catch {
    // Storage full or refused (private mode): the next visit waits for its check, as before.
  }
}

export function forgetUser(store: Store | null): void {
  try {
    store?.removeItem(KEY);
  } catch {
    // Refused storage holds nothing to forget.
  }
}
