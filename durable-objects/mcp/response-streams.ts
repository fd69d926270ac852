// The answer to a request sent over streamable HTTP can only come on the response stream of its
// POST (or, when the server gave that stream event ids, on a stream resumed from the last one).
// When that stream breaks, or ends, without the answer and with no event id to resume from, the
// answer can never come: the MCP SDK notes the break (`onerror`, "SSE stream disconnected") but
// leaves the request waiting for its timeout, so a server that died mid-call looked like one that
// was slow. This watches each POST's event stream and ends such requests at once, with an error
// response of our own (`lostAnswer`), which the SDK hands to the waiting request.
//
// Streams with an event id are left to the SDK, which reconnects to them by itself (a server that
// closes a stream to be polled, SEP-1699, does this on purpose); their requests end at once only
// once the SDK cannot resume them (the server refuses, or every reconnection failed). A JSON
// answer needs nothing: a broken JSON body fails the POST itself, which the SDK reports.
import {
  ErrorCode,
  type JSONRPCErrorResponse,
  McpError,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";

/** Marks the error responses made here, so that callers can tell them from a server's own. */
const LOST = "thinkingChatConnectionLost";
/** Beside LOST: the stream carried something that cannot be an answer (the cause says what). */
const UNREADABLE = "thinkingChatUnreadable";

/**
 * The error response that ends request `id`, whose stream broke for `cause`, or (`unreadable`)
 * carried something that is not JSON-RPC, which the SDK would only log while the call waited.
 */
export function lostAnswer(id: RequestId, cause: string, unreadable = false): JSONRPCErrorResponse {
  return {
    jsonrpc: "2.0",
    id,
    error: {
      code: ErrorCode.ConnectionClosed,
      message: unreadable
        ? `The server's answer could not be read (${cause}).`
        : `The connection to the server was lost before it answered (${cause}).`,
      data: { [LOST]: true, ...(unreadable && { [UNREADABLE]: cause }) },
    },
  };
}

/** What the stream of a request ended by lostAnswer(…, unreadable) carried instead, or null. */
export function unreadableAnswer(err: unknown): string | null {
  if (!isConnectionLost(err)) return null;
  const what = ((err as McpError).data as Record<string, unknown>)[UNREADABLE];
  return typeof what === "string" ? what : null;
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

/** A request's header, whatever form `init.headers` takes. */
const headerOf = (init: RequestInit | undefined, name: string) =>
  new Headers(init?.headers).get(name);

/**
 * Watches the response streams of one transport. A POST's stream that breaks or ends without its
 * answer and without an event id loses its requests at once (`onLost`). One with an event id is
 * left to the SDK to resume, and its requests are lost only when the SDK cannot: the server
 * refuses resumption (its GET answers 405, after which the SDK tries no more), or the SDK gives
 * up reconnecting (`transportError`). An answer that arrives on any stream, resumed ones
 * included, takes its request off the watch.
 */
export class AnswerWatch {
  /** Requests waiting on the SDK to resume their stream, by that stream's last event id. */
  readonly #resuming = new Map<RequestId, string>();

  constructor(
    private readonly onLost: (id: RequestId, cause: string, unreadable?: boolean) => void,
  ) {}

  /** `fetchFn`, with its event streams watched; streams of an aborted transport are not reported. */
  fetch(fetchFn: typeof fetch): typeof fetch {
    return (async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await fetchFn(input, init);
      const method = init?.method ?? "GET";
      const resumedFrom = method === "GET" ? headerOf(init, "last-event-id") : null;
      if (resumedFrom !== null && response.status === 405)
        this.#lose(
          (from) => from === resumedFrom,
          "the server does not let a broken answer be resumed",
        );
      const ids = method === "POST" ? requestIds(init?.body) : [];
      // 202 carries no answer and none will come (a request must be answered on its POST): the
      // SDK would wait for the call's timeout. Reported once the SDK has the response in hand.
      if (response.status === 202 && ids.length > 0) {
        const lost = () => {
          for (const id of ids)
            this.onLost(id, "it accepted the request (202) without answering it", true);
        };
        setTimeout(lost, 0);
        return response;
      }
      if (!response.ok || !response.body || !isEventStream(response)) return response;
      if (method === "POST" && ids.length === 0) return response;
      const signal = init?.signal ?? undefined;
      const watched = watchStream(response.body, ids, {
        lost: (id, cause, unreadable) => {
          if (!signal?.aborted) this.onLost(id, cause, unreadable);
        },
        resuming: (id, lastEventId) => this.#resuming.set(id, lastEventId),
        answered: (id) => this.#resuming.delete(id),
      });
      return new Response(watched, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    }) as typeof fetch;
  }

  /** The transport's errors: when the SDK gives up reconnecting, no resumed answer will come. */
  transportError(error: Error): void {
    if (error.message.startsWith("Maximum reconnection attempts"))
      this.#lose(() => true, "the server could not be reached again to resume its answer");
  }

  #lose(which: (lastEventId: string) => boolean, cause: string): void {
    for (const [id, from] of [...this.#resuming]) {
      if (!which(from)) continue;
      this.#resuming.delete(id);
      this.onLost(id, cause);
    }
  }
}

/** `fetchFn` with its POSTs' streams watched, for a transport of its own (see AnswerWatch). */
export function watchedFetch(
  fetchFn: typeof fetch,
  onLost: (id: RequestId, cause: string) => void,
): typeof fetch {
  return new AnswerWatch(onLost).fetch(fetchFn);
}

interface StreamWatcher {
  /**
   * A request whose answer can never come on this stream, nor on a resumption of it; `unreadable`
   * when the stream carried something else instead of JSON-RPC.
   */
  lost: (id: RequestId, cause: string, unreadable?: boolean) => void;
  /** A request left waiting on a stream the SDK may resume from `lastEventId`. */
  resuming: (id: RequestId, lastEventId: string) => void;
  /** A request answered on this stream. */
  answered: (id: RequestId) => void;
}

/** Passes `body` through unchanged, reading its events on the way (see AnswerWatch). */
function watchStream(
  body: ReadableStream<Uint8Array>,
  ids: RequestId[],
  watcher: StreamWatcher,
): ReadableStream<Uint8Array> {
  const waiting = new Set<RequestId>(ids);
  const decoder = new TextDecoder();
  let lastEventId = "";
  let partial = "";
  let data: string[] = [];
  let eventId = "";
  let eventName = "";
  let events = 0;
  /** The first line that is no event-stream field: a body that is not an event stream at all. */
  let stray = "";
  /** The SDK only logs what it cannot parse, and the call would wait for its timeout. */
  const unreadable = (what: string) => {
    for (const id of waiting) watcher.lost(id, what, true);
    waiting.clear();
  };
  const dispatch = () => {
    if (eventId) lastEventId = eventId;
    eventId = "";
    const named = eventName;
    eventName = "";
    if (data.length === 0) return;
    events++;
    const text = data.join("\n");
    data = [];
    // Priming events carry no data, and events of other names are not messages (the SDK too
    // reads only "message").
    if (text.trim() === "" || (named !== "" && named !== "message")) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return unreadable(`an event that is not JSON: \`${excerpt(text)}\``);
    }
    for (const m of Array.isArray(parsed) ? (parsed as unknown[]) : [parsed]) {
      const msg = m as { jsonrpc?: unknown; id?: RequestId; result?: unknown; error?: unknown };
      if (!msg || typeof msg !== "object" || msg.jsonrpc !== "2.0")
        return unreadable(`an event that is not JSON-RPC: \`${excerpt(text)}\``);
      if (("result" in msg || "error" in msg) && msg.id !== undefined) {
        waiting.delete(msg.id);
        watcher.answered(msg.id);
      }
    }
  };
  const line = (text: string) => {
    if (text === "") return dispatch();
    const colon = text.indexOf(":");
    const field = colon < 0 ? text : text.slice(0, colon);
    const value = colon < 0 ? "" : text.slice(colon + 1).replace(/^ /, "");
    if (field === "data") data.push(value);
    else if (field === "id" && !value.includes("\u0000")) eventId = value;
    else if (field === "event") eventName = value;
    else if (!stray && !["", "event", "id", "retry"].includes(field)) stray = text;
  };
  const feed = (chunk: string) => {
    partial += chunk;
    const lines = partial.split("\n");
    partial = lines.pop()!;
    for (const l of lines) line(l.endsWith("\r") ? l.slice(0, -1) : l);
  };
  const lost = (cause: string) => {
    for (const id of waiting)
      if (lastEventId) watcher.resuming(id, lastEventId);
      else watcher.lost(id, cause);
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
        if (events === 0 && stray)
          unreadable(`it was sent as an event stream but holds no events: \`${excerpt(stray)}\``);
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

/** The start of what a server sent, to name it in a sentence. */
function excerpt(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 60)}…` : line;
}
