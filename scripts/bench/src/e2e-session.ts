// A WebSocket client of our app for the end-to-end benches (e2e, peer): REST to create a
// conversation and get a socket ticket, then the socket as the web client uses it. Frames are
// only JSON-parsed, not validated: the benches time the server, not the client's checks.
import { handshakeQuery } from "../../../durable-objects/protocol/handshake-resume";
import type { Stack } from "../../../tests/e2e/stack";

/** What a bench needs of a running app: its address and a user's token. */
export type AppAddress = Pick<Stack, "url" | "token">;

export interface Frame {
  type: string;
  seq?: number;
}

/** A bench's numeric setting from the environment, `fallback` when unset or empty. */
export const envNumber = (name: string, fallback: number) => {
  const raw = process.env[name];
  return raw === undefined || raw === "" ? fallback : Number(raw);
};

/** Rate limits (RATE_LIMIT_<NAME> vars) that a bench's many turns and new conversations never reach. */
export const UNLIMITED_RATES = {
  RATE_LIMIT_NEW_CONVERSATION: "1000000/60",
  RATE_LIMIT_MESSAGE: "1000000/60",
  RATE_LIMIT_WS_TICKET: "1000000/60",
};

export const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? 0;
export const fmt = (xs: number[]) =>
  xs.length === 0
    ? "no samples"
    : `p50 ${pct(xs, 50).toFixed(1)} ms, p99 ${pct(xs, 99).toFixed(1)} ms (n=${xs.length})`;

export async function postJson<T>(app: AppAddress, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${app.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${app.token}`, "content-type": "application/json" },
    body: JSON.stringify(body ?? {}),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Uploads a file for the conversation's next message (POST …/attachments); its artifact id. */
export async function uploadAttachment(
  app: AppAddress,
  conversationId: string,
  name: string,
  bytes: Uint8Array<ArrayBuffer>,
): Promise<string> {
  const form = new FormData();
  form.set("file", new File([bytes], name));
  const path = `/api/conversations/${conversationId}/attachments`;
  const res = await fetch(`${app.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${app.token}` },
    body: form,
  });
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { artifact: { id: string } }).artifact.id;
}

/** A new conversation, titled "bench" (its first answer still asks the model for a title). */
export const newConversation = (app: AppAddress, body: Record<string, unknown> = {}) =>
  postJson<{ id: string; socket?: { ticket: string } }>(app, "/api/conversations", {
    title: "bench",
    ...body,
  });

export function errorCause(event: Event): string {
  const { message, error } = event as Event & { message?: string; error?: unknown };
  const cause = error instanceof Error ? (error.cause ?? error.message) : error;
  return [message, cause === undefined ? "" : String(cause)].filter(Boolean).join(" / ");
}

/** How many failures of each kind (the message with digits blanked), most common first. */
export function failureKinds(errors: PromiseRejectedResult[]): string {
  const counts = new Map<string, number>();
  for (const e of errors) {
    const kind = String(e.reason)
      .replace(/[0-9a-f]{8,}|\d+/g, "#")
      .slice(0, 160);
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${n}× ${k}`)
    .join("; ");
}

/** A WebSocket whose handshake carries the user's token, as a browser's carries its cookie. */
const signedInSocket = (app: AppAddress, url: string) =>
  // undici's WebSocket takes headers in its options (the DOM type does not know them).
  new WebSocket(url, { headers: { authorization: `Bearer ${app.token}` } } as unknown as string[]);

export interface TurnTimes {
  firstDelta: number | null;
  final: number;
}

/** One conversation's socket: sends a message and times its first delta and its last event. */
export class Session {
  private frames: Frame[] = [];
  private bytes = 0;
  private listeners = new Set<() => void>();
  private constructor(
    private readonly ws: WebSocket,
    readonly conversationId: string,
  ) {
    ws.addEventListener("message", (m) => {
      const data = String(m.data);
      this.bytes += data.length;
      this.frames.push(JSON.parse(data) as Frame);
      for (const l of this.listeners) l();
    });
    ws.addEventListener("close", () => {
      for (const l of this.listeners) l();
    });
  }

  /**
   * Opens the socket and catches up from sequence 0 (`compact` as the web client asks); resolves
   * once the server says the client is synced. The handshake is signed in by the token in its
   * header, as the web client's is by its session cookie; `ticket` uses a ticket instead (what a
   * browser on another origin does).
   */
  static async open(
    app: AppAddress,
    conversationId: string,
    { compact = false, ticket }: { compact?: boolean; ticket?: string } = {},
  ): Promise<Session> {
    // As the web client: the resume asked for in the handshake, so the replay starts as the
    // socket opens (handshake-resume.ts), batched (`replay` frames), compact when asked.
    const query = new URLSearchParams(handshakeQuery({ lastSeq: 0, compact, batch: true }));
    if (ticket) query.set("ticket", ticket);
    const base = `${app.url.replace("http", "ws")}/api/conversations/${conversationId}/ws`;
    const url = `${base}?${query}`;
    const session = await Session.connect(
      ticket ? new WebSocket(url) : signedInSocket(app, url),
      conversationId,
    );
    await session.until((f) => f.type === "synced");
    return session;
  }

  /**
   * A socket that creates its conversation (`?new=1` on a fresh id, with the provider and model
   * chosen), as the web client's new conversation and as the peer's client opens a socket to a new
   * agent name: no request before it. The resume rides on the handshake.
   */
  static async create(
    app: AppAddress,
    choice: { provider?: string; model?: string } = {},
  ): Promise<Session> {
    const id = crypto.randomUUID();
    const query = new URLSearchParams({ new: "1", ...choice });
    const session = await Session.connect(
      signedInSocket(
        app,
        `${app.url.replace("http", "ws")}/api/conversations/${id}/ws?${query}&${handshakeQuery({ lastSeq: 0 })}`,
      ),
      id,
    );
    return session;
  }

  private static async connect(ws: WebSocket, conversationId: string): Promise<Session> {
    await new Promise((resolve, reject) => {
      ws.addEventListener("open", resolve);
      // undici's ErrorEvent carries the cause (a refused upgrade, a reset): say it, so a crowd's
      // failures can be told apart.
      ws.addEventListener("error", (e) => reject(new Error(`websocket error: ${errorCause(e)}`)));
    });
    return new Session(ws, conversationId);
  }

  /** Frames and characters received so far (after `open`: what the catch-up took). */
  received(): { frames: number; chars: number } {
    return { frames: this.frames.length, chars: this.bytes };
  }

  private until(match: (f: Frame) => boolean, from = 0, timeoutMs = 60_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.frames.slice(from).some(match)) done(resolve);
        else if (this.ws.readyState === WebSocket.CLOSED) done(() => reject(new Error("closed")));
      };
      const timer = setTimeout(() => done(() => reject(new Error("timed out"))), timeoutMs);
      const done = (then: () => void) => {
        clearTimeout(timer);
        this.listeners.delete(check);
        then();
      };
      this.listeners.add(check);
      check();
    });
  }

  /**
   * Sends `text` (with `attachments`, artifact ids of this conversation); resolves with ms from
   * the send to the first text delta and to the turn's end.
   */
  async turn(text: string, timeoutMs = 60_000, attachments: string[] = []): Promise<TurnTimes> {
    const from = this.frames.length;
    const sent = performance.now();
    let firstDelta: number | null = null;
    this.until((f) => f.type === "text_delta", from, timeoutMs).then(
      () => (firstDelta ??= performance.now() - sent),
      () => undefined, // a turn without text is reported by its end
    );
    const send = { type: "send", clientMessageId: crypto.randomUUID(), text };
    this.ws.send(JSON.stringify(attachments.length > 0 ? { ...send, attachments } : send));
    await this.until((f) => f.type === "turn_ended" || f.type === "turn_failed", from, timeoutMs);
    const final = performance.now() - sent;
    const failed = this.frames.slice(from).find((f) => f.type === "turn_failed");
    if (failed) throw new Error(`turn failed: ${JSON.stringify(failed)}`);
    return { firstDelta, final };
  }

  close(): void {
    this.ws.close();
  }
}
