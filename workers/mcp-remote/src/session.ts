// Session ids: issued at initialize so a client's preferences (its log level) can follow it from
// one request to the next. They name no server state: any isolate answers any request.

export const SESSION_HEADER = "mcp-session-id";

/** What we issue: a random UUID (visible ASCII, as the specification requires). */
export const newSessionId = (): string => crypto.randomUUID();

const SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The session id a request carries, if it is one we could have issued. */
export function sessionIdOf(headers: Headers | Record<string, string | string[] | undefined>) {
  const raw = headers instanceof Headers ? headers.get(SESSION_HEADER) : headers[SESSION_HEADER];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value && SHAPE.test(value) ? value : undefined;
}
