// A member's tab reconnecting after they left the conversation or the owner removed them (it was
// offline at the time, say). A browser is never shown why an upgrade failed: refused with 404 it
// would look like a dropped network, and the tab would say "reconnecting" for ever. So the socket
// opens and closes at once, with the code and reason their open tabs were closed with
// (close-codes.ts), and the page says which of the two it was.
import {
  CLOSE_ACCESS_REVOKED,
  CLOSE_REASON_ACCESS_REVOKED,
  CLOSE_REASON_LEFT,
} from "../../../../durable-objects/protocol/close-codes";
import type { DepartureReason } from "../db/members";

export function departedSocket(reason: DepartureReason): Response {
  const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
  server.accept();
  server.close(
    CLOSE_ACCESS_REVOKED,
    reason === "left" ? CLOSE_REASON_LEFT : CLOSE_REASON_ACCESS_REVOKED,
  );
  return new Response(null, { status: 101, webSocket: client });
}
