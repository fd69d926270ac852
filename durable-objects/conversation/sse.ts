// Server-Sent Events for clients that are not browsers: the same events and sequence numbers as
// the WebSocket, each with `id: <seq>` so `Last-Event-ID` resumes exactly where a client left off.
import type { ServerEvent } from "../protocol/wire";

const enc = new TextEncoder();

export const formatSse = (e: ServerEvent) =>
  enc.encode(`id: ${e.seq}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);

export interface SseSubscriber {
  /** Returns true when the stream should end after this event. */
  push(event: ServerEvent): boolean;
}

/**
 * Opens a stream that first replays `backlog`, then receives live events through the returned
 * subscriber until `isLast` says the stream is complete.
 */
export function openSseStream(
  backlog: ServerEvent[],
  isLast: (e: ServerEvent) => boolean,
  endNow: boolean,
  onClose: (s: SseSubscriber) => void,
): { response: Response; subscriber: SseSubscriber } {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    onClose(subscriber);
    try {
      controller.close();
    } catch {
      // already closed by the client
    }
  };
  const subscriber: SseSubscriber = {
    push(event) {
      if (closed) return true;
      try {
        controller.enqueue(formatSse(event));
      } catch {
        close();
        return true;
      }
      if (isLast(event)) {
        close();
        return true;
      }
      return false;
    },
  };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      controller.enqueue(enc.encode(": connected\n\n"));
      for (const e of backlog) if (subscriber.push(e)) return;
      if (endNow) close();
    },
    cancel() {
      closed = true;
      onClose(subscriber);
    },
  });
  return {
    subscriber,
    response: new Response(body, {
      headers: {
        "Content-Type": "text/event-stream; charset=utf-8",
        "Cache-Control": "no-cache, no-transform",
        "X-Accel-Buffering": "no",
      },
    }),
  };
}
