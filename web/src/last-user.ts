// The user this browser's session check last confirmed. A returning visit draws the app for them
// at once, while the check (preloaded by index.html) is on its way: the check still decides. A
// refused session (401) or a sign-out forgets them and the sign-in shows; an unreachable server
// does not (nothing says the session ended). Only the id and name are kept, no credential.
import { z } from "zod";
import type { User } from "./api";

const KEY = "thinking-chat:last-user";
const StoredUser = z.object({ id: z.string().min(1), name: z.string() });

type Store = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/** The remembered user, or null (none, or a stored value that is not one). */
export function lastUser(store: Store | null): User | null {
  try {
    const raw = store?.getItem(KEY);
    if (!raw) return null;
    const parsed = StoredUser.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
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
