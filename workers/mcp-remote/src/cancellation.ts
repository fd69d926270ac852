// Cancellation on a stateless server. A call runs inside the server built for its own POST, so
// a notifications/cancelled (which arrives in a POST of its own) is routed here, by session and
// request id, to the call it names; a client hanging up on the call's stream stops it too.
// Stopping closes that POST's server: the SDK aborts the handler's signal, which every outside
// fetch follows, and the call's stream ends without an answer, as cancellation asks.
import {
  CancelledNotificationSchema,
  isJSONRPCRequest,
  type JSONRPCMessage,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";

const inFlight = new Map<string, () => void>();
const keyOf = (sessionId: string, id: RequestId) => `${sessionId} ${JSON.stringify(id)}`;

/** Registers the requests of one POST under its session; returns the function that forgets them. */
export function trackRequests(
  sessionId: string | undefined,
  messages: JSONRPCMessage[],
  stop: () => void,
): () => void {
  // Request ids are only unique within a session: without one, a cancellation cannot be routed.
  if (!sessionId) return () => undefined;
  const keys = messages.filter(isJSONRPCRequest).map((m) => keyOf(sessionId, m.id));
  for (const key of keys) inFlight.set(key, stop);
  return () => {
    for (const key of keys) if (inFlight.get(key) === stop) inFlight.delete(key);
  };
}

/** Stops the calls that the cancellation notifications among `messages` name. */
export function applyCancellations(sessionId: string | undefined, messages: JSONRPCMessage[]) {
  if (!sessionId) return;
  for (const message of messages) {
    const cancelled = CancelledNotificationSchema.safeParse(message);
    const requestId = cancelled.success ? cancelled.data.params.requestId : undefined;
    if (requestId !== undefined) inFlight.get(keyOf(sessionId, requestId))?.();
  }
}

/**
 * The same response, with its body watched: `onEnd` once the body is finished or abandoned,
 * `onHangUp` when the client stops reading before the end.
 */
export function watchBody(
  response: Response,
  headers: Headers,
  onEnd: () => void,
  onHangUp: () => void,
): Response {
  if (!response.body) {
    onEnd();
    return new Response(null, { status: response.status, headers });
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (!done) return controller.enqueue(value);
        onEnd();
        controller.close();
      } catch (err) {
        onEnd();
        controller.error(err);
      }
    },
    async cancel(reason) {
      onHangUp();
      onEnd();
      await reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, headers });
}
