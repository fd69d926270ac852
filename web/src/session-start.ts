// How a page load learns who is signed in, decided once from the address and this browser's
// storage, before any request: the first requests (first-requests.ts) and App.tsx agree on it.
import type { User } from "./api";
import { lastUser } from "./last-user";
import { startLinkToken } from "./start-link";

export type SessionStart =
  /** A start link (`#token=…`): sign in with its token; nothing is asked before. */
  | { kind: "start-link"; token: string }
  /**
   * Ask the server. `user` is who this browser last signed in as (drawn while the check is on its
   * way); null when the storage cannot be read, so nobody is known.
   */
  | { kind: "check"; user: User | null }
  /**
   * Nobody signed in from this browser, or they signed out or were refused since: the sign-in
   * page shows at once, without a session check that could only answer 401.
   */
  | { kind: "signed-out" };

type Store = Pick<Storage, "getItem" | "setItem" | "removeItem">;

export function sessionStart(hash: string, store: Store | null): SessionStart {
  const token = startLinkToken(hash);
  if (token) return { kind: "start-link", token };
  if (!store || !readable(store)) return { kind: "check", user: null };
  const user = lastUser(store);
  return user ? { kind: "check", user } : { kind: "signed-out" };
}

/** Private modes and full quotas may refuse storage: then it cannot say that nobody signed in. */
function readable(store: Store): boolean {
  try {
    store.getItem("thinking-chat:probe");
    return true;
  } catch {
    return false;
  }
}
