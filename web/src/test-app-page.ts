// The whole app's page for a jsdom test that renders <App />: the user signed in last on this
// browser, one conversation open in the address, the test's own socket and server, no dark mode,
// and (if given) the network's state as `navigator.onLine` says it. Restored by the test's
// `vi.unstubAllGlobals()` and `vi.restoreAllMocks()`.
import { vi } from "vitest";
import type { User } from "./api";
import { rememberUser } from "./last-user";

export interface AppPage {
  me: User;
  conversationId: string;
  /** Stands in for the browser's WebSocket. */
  socket: new (...args: never[]) => EventTarget;
  /** Answers every request the page makes. */
  fetch: (path: string, init?: RequestInit) => Promise<Response>;
  /** Whether the browser says it is online. */
  online?: () => boolean;
}

export function stubAppPage(page: AppPage): void {
  localStorage.clear();
  rememberUser(localStorage, page.me);
  history.replaceState(null, "", `/?c=${page.conversationId}`);
  vi.stubGlobal("WebSocket", page.socket);
  vi.stubGlobal("matchMedia", () => ({
    matches: false,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
  vi.stubGlobal("fetch", vi.fn(page.fetch));
  if (page.online) vi.spyOn(navigator, "onLine", "get").mockImplementation(page.online);
}
