// Server-Sent Events for clients that are not browsers: the same events and sequence numbers as
// the WebSocket, each with `id: <seq>` so `Last-Event-ID` resumes exactly where a client left off.
// A stream reads the log page by page as the client takes it, then follows live events: the
// switch happens with no await between the last page and subscribing, so nothing slips between.
import { type ConversationRole, seesUsage } from "../protocol/roles";
import { eventForViewer } from "../protocol/viewer-view";
import type { ServerEvent } from "../protocol/wire";
import type { SocketCredential } from "./socket-credential";

/** Events read from the log per page: memory stays bounded however long the backlog. */
const SSE_PAGE_SIZE = 500;
/** A comment this often keeps proxies from closing a stream that waits on a slow tool. */
const KEEP_ALIVE_MS = 20_000;

const enc = new TextEncoder();
const frame = (e: ServerEvent) => `id: ${e.seq}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;

export interface SseSubscriber {
  /** Who opened the stream: re-checked while it follows live events (sse-gate.ts). */
  readonly credential: SocketCredential;
  /**
   * The role its user holds, as last read: a viewer's stream leaves out `usage_updated` (the
   * owner's spending). Changed when the owner changes it, or a re-read finds it changed.
   */
  role: ConversationRole;
  /** Sends a live event; returns true once the stream has ended and may be forgotten. */
  push(event: ServerEvent): boolean;
  /** Ends the stream now (the conversation is being deleted, or `comment` says why). */
  close(comment?: string): void;
}

/** When a stream ends (the two rules are in sse-requests.ts). */
export interface SseEnd {
  /** Whether the stream ends after this event; `live` when it was just emitted. */
  after(event: ServerEvent, live: boolean): boolean;
  /** Whether the stream ends once it has caught up with the log. */
  whenCaughtUp(): boolean;
}

/** The conversation's event log, and its live events. */
export interface SseLog {
  /** The stored events after `seq`; without usage when `hidesUsage`. */
  eventsAfter(seq: number, limit: number, hidesUsage: boolean): ServerEvent[];
  follow(subscriber: SseSubscriber): void;
  unfollow(subscriber: SseSubscriber): void;
  /** Called with each keep-alive: a stream that waits long is still re-checked. */
  keptAlive(): void;
}

/**
 * A stream of every event after `after`, in order and each once, that ends as `end` says. A
 * viewer's leaves out usage and budgets' figures (viewer-view.ts), from the role it holds at each
 * page and each live event.
 */
export function openSseStream(
  log: SseLog,
  after: number,
  end: SseEnd,
  credential: SocketCredential,
  role: ConversationRole,
): Response {
  let cursor = after;
  let live = false;
  let closed = false;
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  let controller!: ReadableStreamDefaultController<Uint8Array>;

  const finish = (closeBody: boolean) => {
    if (closed) return;
    closed = true;
    clearInterval(keepAlive);
    if (live) log.unfollow(subscriber);
    if (!closeBody) return;
    try {
      controller.close();
    } catch {
      // the client is gone already
    }
  };
  const send = (text: string) => {
    try {
      controller.enqueue(enc.encode(text));
    } catch {
      finish(false); // the client hung up
    }
  };
  const subscriber: SseSubscriber = {
    credential,
    role,
    push(event) {
      if (closed) return true;
      if (event.seq <= cursor) return false;
      cursor = event.seq;
      const shown = seesUsage(subscriber.role) ? event : eventForViewer(event);
      if (!shown) return false;
      send(frame(shown));
      if (!closed && end.after(event, true)) finish(true);
      return closed;
    },
    close(comment) {
      if (comment && !closed) send(`: ${comment}\n\n`);
      finish(true);
    },
  };

  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      c.enqueue(enc.encode(": connected\n\n"));
    },
    // Called each time the client has taken what was sent: the backlog is read a page at a time.
    pull() {
      if (closed || live) return;
      const hidesUsage = !seesUsage(subscriber.role);
      const page = log.eventsAfter(cursor, SSE_PAGE_SIZE, hidesUsage);
      let text = "";
      for (const e of page) {
        const shown = hidesUsage ? eventForViewer(e) : e;
        if (shown) text += frame(shown);
        cursor = e.seq;
        if (end.after(e, false)) {
          send(text);
          return finish(true);
        }
      }
      if (text) send(text);
      if (page.length === SSE_PAGE_SIZE || closed) return;
      if (end.whenCaughtUp()) return finish(true);
      live = true;
      log.follow(subscriber);
      keepAlive = setInterval(() => {
        send(": keep-alive\n\n");
        log.keptAlive();
      }, KEEP_ALIVE_MS);
    },
    cancel() {
      finish(false);
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache, no-transform",
      "X-Accel-Buffering": "no",
    },
  });
}
