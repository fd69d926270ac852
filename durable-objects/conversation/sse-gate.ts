// Ends Server-Sent Events streams whose credential was revoked, as SocketGate does for sockets.
// While events stream, and at each keep-alive of a stream that waits, the open streams'
// credentials are re-read from D1 at most every REVALIDATE_MS; a stream opened with a session
// that was signed out, or a token that was revoked or has expired, ends with a comment saying
// so. A client that reconnects (EventSource does by itself) then gets 401 from the API worker.
import { revokedAmong } from "./socket-credential";
import { REVALIDATE_MS } from "./socket-gate";
import type { SseSubscriber } from "./sse";

export const REVOKED_COMMENT =
  "revoked: the session or token this stream was opened with no longer works; sign in again";

export class SseGate {
  #lastRevalidation = 0;

  constructor(
    private readonly db: D1Database,
    private readonly streams: Set<SseSubscriber>,
  ) {}

  /** Re-checks every open stream's credential when the last check is old. */
  revalidateIfDue(now = Date.now()): void {
    if (this.streams.size === 0 || now - this.#lastRevalidation < REVALIDATE_MS) return;
    this.#lastRevalidation = now;
    void this.revalidateAll().catch((err: unknown) =>
      console.warn("sse: re-checking credentials failed", err),
    );
  }

  private async revalidateAll(): Promise<void> {
    const revoked = await revokedAmong(this.db, [...this.streams], (s) => s.credential);
    for (const stream of revoked) {
      stream.close(REVOKED_COMMENT);
      this.streams.delete(stream);
    }
  }
}
