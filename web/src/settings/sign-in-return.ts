// Redirect mode (popups blocked): the browser leaves the app for the authorization page, and the
// callback sends it back to `/#mcp-oauth=connected|failed`. Before leaving, the app notes which
// conversation was open; on the way back it reopens that conversation with Settings showing the
// result, and clears the hash so a reload does not show it again.
const RETURN_KEY = "mcp-oauth-return";
const HASH_KEY = "mcp-oauth";

type ReadStorage = Pick<Storage, "getItem">;
type WriteStorage = Pick<Storage, "setItem" | "removeItem">;

export interface SignInLanding {
  ok: boolean;
  /** What Settings says about the sign-in that just ended. */
  message: string;
  /** The address query (`?c=…`) of the page that started the sign-in, or "". */
  search: string;
}

/** The session storage, where the browser lets us use it (private modes may not). */
export function sessionStore(): (ReadStorage & WriteStorage) | undefined {
  try {
    return typeof sessionStorage === "undefined" ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}

/** Notes the page to come back to; called just before the browser leaves for the sign-in. */
export function rememberReturn(storage: WriteStorage | undefined, search: string): void {
  try {
    storage?.setItem(RETURN_KEY, search);
  } catch {
    // Without storage the app still opens; only the conversation is not reopened.
  }
}

/** The sign-in result in the address, or null when this page load is no return from one. */
export function readLanding(hash: string, storage: ReadStorage | undefined): SignInLanding | null {
  const value = new URLSearchParams(hash.replace(/^#/, "")).get(HASH_KEY);
  if (value !== "connected" && value !== "failed") return null;
  let search: string;
  try {
    search = storage?.getItem(RETURN_KEY) ?? "";
  } catch {
    search = "";
  }
  return {
    ok: value === "connected",
    message:
      value === "connected"
        ? "Signed in: the MCP server is connected."
        : "The sign-in did not complete. The server below says why; press Connect to try again.",
    // Only a query of our own making goes back into the address.
    search: /^\?c=[\w-]+$/.test(search) ? search : "",
  };
}

/** Once the landing is read: the hash goes, and so does the note of where to return. */
export function forgetLanding(storage: WriteStorage | undefined, replaceUrl: () => void): void {
  try {
    storage?.removeItem(RETURN_KEY);
  } catch {
    // Nothing to forget.
  }
  replaceUrl();
}
