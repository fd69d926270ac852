// The first screen's GET requests, started together as soon as the page's script starts
// (start-first-requests.ts, main.tsx's first import, runs before React and the schemas are
// evaluated) instead of one after another: the list, the providers and the conversations shared
// with you used to be asked for only once the session check had answered and the list had
// rendered. `request` in api.ts takes each early answer once; later calls ask again.
//
// Only when the session is to be checked (session-start.ts): a start link (#token=… in the
// address) signs in first, and a list asked for before the sign-in would answer for no session;
// a browser nobody is signed in from shows the sign-in page, and every request would answer 401
// (an error in the console each).

import type { SessionStart } from "./session-start";

export const SESSION_PATH = "/api/session";
export const LIST_PATH = "/api/conversations?limit=100";
export const PROVIDERS_PATH = "/api/providers";
export const SHARED_WITH_ME_PATH = "/api/shared-with-me";

const FIRST_SCREEN = [SESSION_PATH, LIST_PATH, PROVIDERS_PATH, SHARED_WITH_ME_PATH];

const started = new Map<string, Promise<Response>>();

/** Starts the first screen's requests when the page is to check its session. */
export function startFirstRequests(
  start: SessionStart,
  get: (path: string, init: RequestInit) => Promise<Response> = (path, init) => fetch(path, init),
): void {
  if (start.kind !== "check") return;
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
