// The first screen's GET requests, started together as soon as the page's script starts
// (start-first-requests.ts, main.tsx's first import, runs before React and the schemas are
// evaluated) instead of one after another: the list, the providers and the conversations shared
// with you used to be asked for only once the session check had answered and the list had
// rendered. `request` in api.ts takes each early answer once; later calls ask again.
//
// The session check itself is preloaded by index.html; asking for it here takes that preload
// (same URL, same credentials) a little sooner. A start link (#token=… in the address) signs in
// first, so nothing starts early then: a list asked for before the sign-in would answer for no
// session.

export const SESSION_PATH = "/api/session";
export const LIST_PATH = "/api/conversations?limit=100";
export const PROVIDERS_PATH = "/api/providers";
export const SHARED_WITH_ME_PATH = "/api/shared-with-me";

const FIRST_SCREEN = [SESSION_PATH, LIST_PATH, PROVIDERS_PATH, SHARED_WITH_ME_PATH];

const started = new Map<string, Promise<Response>>();

/** Starts the first screen's requests, unless the address is a start link (`#token=…`). */
export function startFirstRequests(
  hash: string,
  get: (path: string, init: RequestInit) => Promise<Response> = (path, init) => fetch(path, init),
): void {
  if (new URLSearchParams(hash.slice(1)).has("token")) return;
  for (const path of FIRST_SCREEN) {
    const answer = get(path, { credentials: "same-origin" });
    // Never taken (the session check failed) is not an error of its own.
    answer.catch(() => undefined);
    started.set(path, answer);
  }
}

/** The early answer for this path, once; undefined when there is none (ask the API then). */
export function takeFirstRequest(path: string): Promise<Response> | undefined {
  const answer = started.get(path);
  started.delete(path);
  return answer;
}

/** Drops the early answers: the session check failed, so they were made without a session. */
export function forgetFirstRequests(): void {
  started.clear();
}
