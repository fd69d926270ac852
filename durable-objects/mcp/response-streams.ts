// The answer to a request sent over streamable HTTP can only come on the response stream of its
// POST (or, when the server gave that stream event ids, on a stream resumed from the last one).
// When that stream breaks, or ends, without the answer and with no event id to resume from, the
// answer can never come: the MCP SDK notes the break (`onerror`, "SSE stream disconnected") but
// leaves the request waiting for its timeout, so a server that died mid-call looked like one that
// was slow. This watches each POST's event stream and ends such requests at once, with an error
// response of our own (`lostAnswer`), which the SDK hands to the waiting request.
//
// Streams with an event id are left to the SDK, which reconnects to them by itself (a server that
// closes a stream to be polled, SEP-1699, does this on purpose). A JSON answer needs nothing: a
// broken JSON body fails the POST itself, which the SDK reports to the request.
import {
  ErrorCode,
  type JSONRPCErrorResponse,
  McpError,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";

/** Marks the error responses made here, so that callers can tell them from a server's own. */
const LOST = "thinkingChatConnectionLost";

/** The error response that ends request `id`, whose stream broke for `cause`. */
export function lostAnswer(id: RequestId, cause: string): JSONRPCErrorResponse {
  return {
    jsonrpc: "2.0",
    id,
    error: {
      code: ErrorCode.ConnectionClosed,
      message: `The connection to the server was lost before it answered (${cause}).`,
      data: { [LOST]: true },
    },
  };
}

/** The request failed because its connection was lost (see lostAnswer), not by the server's word. */
export function isConnectionLost(err: unknown): boolean {
  return (
    err instanceof McpError &&
    err.code === ErrorCode.ConnectionClosed &&
    typeof err.data === "object" &&
    err.data !== null &&
    (err.data as Record<string, unknown>)[LOST] === true
  );
}

/** The ids of the requests in a POST body (one JSON-RPC message or a batch). */
function requestIds(body: unknown): RequestId[] {
  if (typeof body !== "string") return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const messages = Array.isArray(parsed) ? (parsed as unknown[]) : [parsed];
  return messages.flatMap((m) => {
    const msg = m as { method?: unknown; id?: unknown } | null;
    return msg &&
      typeof msg.method === "string" &&
      (typeof msg.id === "string" || typeof msg.id === "number")
      ? [msg.id]
      : [];
  });
}

const isEventStream = (response: Response) =>
  (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase() ===
  "text/event-stream";

/**
 * `fetchFn`, with each POST's event stream watched: `onLost` hears of each request whose stream
 * broke or ended without its answer and without an event id to resume from. Streams that end
 * because the transport was closed (its signal aborted) are not reported.
 */
export function watchedFetch(
  fetchFn: typeof fetch,
  onLost: (id: RequestId, cause: string) => void,
): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await fetchFn(input, init);
    if (init?.method !== "POST" || !response.ok || !response.body || !isEventStream(response))
      return response;
    const ids = requestIds(init.body);
    if (ids.length === 0) return response;
    const signal = init.signal ?? undefined;
    const watched = watchStream(response.body, ids, (id, cause) => {
      if (!signal?.aborted) onLost(id, cause);
    });
    return new Response(watched, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }) as typeof fetch;
}

/** Passes `body` through unchanged, reading its events on the way (see watchedFetch). */
function watchStream(
  body: ReadableStream<Uint8Array>,
  ids: RequestId[],
  onLost: (id: RequestId, cause: string) => void,
): ReadableStream<Uint8Array> {
  const waiting = new Set<RequestId>(ids);
  const decoder = new TextDecoder();
  let resumable = false;
  let partial = "";
  let data: string[] = [];
  let eventId = "";
  const dispatch = () => {
    if (eventId) resumable = true;
    eventId = "";
    if (data.length === 0) return;
    try {
      const parsed = JSON.parse(data.join("\n")) as unknown;
      for (const m of Array.isArray(parsed) ? (parsed as unknown[]) : [parsed]) {
        const msg = m as { id?: RequestId; result?: unknown; error?: unknown } | null;
        if (msg && ("result" in msg || "error" in msg) && msg.id !== undefined)
          waiting.delete(msg.id);
      }
    } catch {
      // Not ours to judge: the SDK reports what it cannot parse.
    }
    data = [];
  };
  const line = (text: string) => {
    if (text === "") return dispatch();
    const colon = text.indexOf(":");
    const field = colon < 0 ? text : text.slice(0, colon);
    const value = colon < 0 ? "" : text.slice(colon + 1).replace(/^ /, "");
    if (field === "data") data.push(value);
    else if (field === "id" && !value.includes("\u0000")) eventId = value;
  };
  const feed = (chunk: string) => {
    partial += chunk;
    const lines = partial.split("\n");
    partial = lines.pop()!;
    for (const l of lines) line(l.endsWith("\r") ? l.slice(0, -1) : l);
  };
  const lost = (cause: string) => {
    if (resumable) return;
    for (const id of waiting) onLost(id, cause);
    waiting.clear();
  };
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch (err) {
        controller.error(err);
        lost(err instanceof Error ? err.message : String(err));
        return;
      }
      if (next.done) {
        // An answer the server did not finish with a blank line still counts.
        feed(decoder.decode());
        if (partial) line(partial);
        dispatch();
        controller.close();
        lost("the server ended the response without answering");
        return;
      }
      feed(decoder.decode(next.value, { stream: true }));
      controller.enqueue(next.value);
    },
    cancel(reason) {
      // The reader gave up on the stream (the transport is closing): nothing is waiting on it.
      waiting.clear();
      return reader.cancel(reason);
    },
  });
}
