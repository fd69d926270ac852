// The door of a conversation's WebSockets: who may open one, whether that is still true, what a
// client frame must look like, and how a socket ends.
//
// Revocation model: every socket carries the credential it was opened with (a session, or an API
// token). The object re-reads it from D1 before handling each frame the client sends, and while
// events stream to the sockets at most every REVALIDATE_MS (not the one the latest frame's check
// found live within that time); a credential that was signed out,
// revoked or has expired closes its sockets with 4401. So a revoked socket gets nothing more than
// the events of the next few seconds, and is closed by the first frame it sends; the same holds
// for revocations made from the command line, which never talk to this object.
import type { Connection, ConnectionContext, WSMessage } from "agents";
import type { ClientFrame, ErrorInfo, ServerControl } from "../protocol/wire";
import { parseClientFrame } from "./frames";
import { credentialIsLive, SOCKET_CREDENTIAL_HEADER, SocketCredential } from "./socket-credential";

/** How often sockets that receive events are re-checked when they send nothing. */
export const REVALIDATE_MS = 5_000;
/** Close code for a socket whose session or token no longer works. */
export const CLOSE_REVOKED = 4401;
/** Malformed frames are logged once, then at most once per this interval, with a count. */
const LOG_SAMPLE_MS = 60_000;

export interface SocketState {
  synced: boolean;
  credential?: SocketCredential;
}

export class SocketGate {
  #queues = new Map<string, Promise<void>>();
  #lastRevalidation = 0;
  /** The latest frame's check that found its credential live (`credentialKey`, when). */
  #lastConfirmed: { key: string; at: number } | null = null;
  #invalidFrames = 0;
  #lastInvalidLog = -Infinity;

  constructor(
    /** The object's SQLite with its tables (schema.ts), asked for when a ticket is claimed. */
    private readonly tables: () => SqlStorage,
    private readonly db: D1Database,
    private readonly connections: () => Iterable<Connection>,
  ) {}

  /** Accepts a ticket id once, until it expires; false when it was seen before. */
  claimTicket(id: string, expiresAt: number, now = Date.now()): boolean {
    const sql = this.tables();
    sql.exec("DELETE FROM ws_used_tickets WHERE expires_at <= ?", now);
    const fresh = sql
      .exec(
        "INSERT INTO ws_used_tickets (id, expires_at) VALUES (?, ?) ON CONFLICT DO NOTHING RETURNING id",
        id,
        expiresAt,
      )
      .toArray();
    return fresh.length > 0;
  }

  /** A new socket: remembers its credential; one without a credential is closed at once. */
  admit(connection: Connection, ctx: ConnectionContext): void {
    const header = ctx.request.headers.get(SOCKET_CREDENTIAL_HEADER);
    const credential = header ? SocketCredential.safeParse(safeJson(header)) : null;
    if (!credential?.success) {
      connection.close(1008, "not authenticated");
      return;
    }
    connection.setState({ synced: false, credential: credential.data } satisfies SocketState);
  }

  /**
   * A client frame, in order per socket: a valid one is handled after re-checking the socket's
   * credential; a malformed one is answered with `frame_error` and counted, never logged one
   * line per frame. `prepare` sees a valid frame first, so the reads and checks the frame will
   * need go out with the re-check of its credential (it may read the credential itself, in one
   * batch with them, and answer whether it holds); nothing is stored or sent before it holds.
   */
  receive(
    connection: Connection,
    raw: WSMessage,
    handle: (frame: ClientFrame) => void | Promise<void>,
    prepare?: (frame: ClientFrame) => Promise<boolean> | undefined,
  ): void {
    const previous = this.#queues.get(connection.id) ?? Promise.resolve();
    const next = previous
      .then(async () => {
        // A malformed frame does nothing, so it costs no D1 read; every other frame does.
        const parsed = parseClientFrame(raw);
        if (!parsed.ok) {
          this.countInvalid(parsed.error);
          return send(connection, { type: "frame_error", error: parsed.error });
        }
        const live = prepare?.(parsed.frame);
        if (await this.stillLive(connection, live)) await handle(parsed.frame);
      })
      .catch((err: unknown) => console.warn("websocket: a frame could not be handled", err));
    this.#queues.set(connection.id, next);
    void next.finally(() => {
      if (this.#queues.get(connection.id) === next) this.#queues.delete(connection.id);
    });
  }

  /**
   * The peer closed. A close frame without a status code (a browser's `ws.close()`) arrives as
   * 1005, which may not be echoed: answer with 1000 at once, or the peer waits and sees 1006.
   */
  closed(connection: Connection, code: number): void {
    this.#queues.delete(connection.id);
    if (code !== 1005) return;
    try {
      connection.close(1000, "closed");
    } catch {
      // Already gone.
    }
  }

  /** Called as events go out: re-checks every socket's credential when the last check is old. */
  revalidateIfDue(now = Date.now()): void {
    if (now - this.#lastRevalidation < REVALIDATE_MS) return;
    this.#lastRevalidation = now;
    void this.revalidateAll().catch((err: unknown) =>
      console.warn("websocket: re-checking credentials failed", err),
    );
  }

  private async revalidateAll(): Promise<void> {
    const byKey = new Map<string, { credential: SocketCredential; sockets: Connection[] }>();
    for (const connection of this.connections()) {
      const credential = (connection.state as SocketState | null)?.credential;
      if (!credential) continue;
      const key = credentialKey(credential);
      const entry = byKey.get(key) ?? { credential, sockets: [] };
      entry.sockets.push(connection);
      byKey.set(key, entry);
    }
    const now = Date.now();
    for (const [key, { credential, sockets }] of byKey) {
      // The frame that set these events off had it checked moments ago: that check stands.
      const last = this.#lastConfirmed;
      if (last?.key === key && now - last.at < REVALIDATE_MS) continue;
      if (await credentialIsLive(this.db, credential)) continue;
      for (const s of sockets) closeRevoked(s);
    }
  }

  private async stillLive(connection: Connection, read?: Promise<boolean>): Promise<boolean> {
    const credential = (connection.state as SocketState | null)?.credential;
    if (credential && (await (read ?? credentialIsLive(this.db, credential)))) {
      this.#lastConfirmed = { key: credentialKey(credential), at: Date.now() };
      return true;
    }
    closeRevoked(connection);
    return false;
  }

  /**
   * The `agents` base class answers its own RPC and state frames before our handler sees them,
   * logging an error for each refused call and letting a client write the agent's state. Our
   * protocol has neither: such a frame is refused here like any other unknown frame.
   */
  refuseLibraryFrame(ws: WebSocket, raw: WSMessage): boolean {
    if (typeof raw !== "string" || !isLibraryFrame(raw)) return false;
    const error: ErrorInfo = {
      code: "invalid_frame",
      message: "Unknown frame type. Expected one of resume, send, cancel, ping.",
    };
    this.countInvalid(error);
    try {
      ws.send(JSON.stringify({ type: "frame_error", error } satisfies ServerControl));
    } catch {
      // A closing socket.
    }
    return true;
  }

  private countInvalid(error: ErrorInfo, now = Date.now()): void {
    this.#invalidFrames++;
    if (now - this.#lastInvalidLog < LOG_SAMPLE_MS) return;
    this.#lastInvalidLog = now;
    console.warn(
      `websocket: ${this.#invalidFrames} malformed client frame(s) so far in this conversation (latest: ${error.code}); answered with frame_error`,
    );
  }

  /** Malformed frames received since the object started (for tests and diagnostics). */
  get invalidFrames(): number {
    return this.#invalidFrames;
  }
}

/** Sockets opened with the same token and session share a credential, and its checks. */
const credentialKey = (c: SocketCredential) => `${c.tokenId}/${c.sessionId ?? ""}`;

function closeRevoked(connection: Connection): void {
  try {
    connection.close(CLOSE_REVOKED, "signed out or revoked");
  } catch {
    // Already closing.
  }
}

function send(connection: Connection, frame: ServerControl): void {
  try {
    connection.send(JSON.stringify(frame));
  } catch {
    // A closing socket: nothing to tell.
  }
}

/** Frames the `agents` library would handle itself (its RPC and client state protocol). */
function isLibraryFrame(raw: string): boolean {
  const value = safeJson(raw);
  if (typeof value !== "object" || value === null || !("type" in value)) return false;
  const type = (value as { type: unknown }).type;
  return type === "rpc" || (typeof type === "string" && type.startsWith("cf_agent"));
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Runs `work` with the object's `abort()` turned into a no-op (see Conversation.wipe). */
export async function withoutAbort(
  ctx: DurableObjectState,
  work: () => Promise<void>,
): Promise<void> {
  Object.defineProperty(ctx, "abort", { configurable: true, value: () => undefined });
  await work();
}
