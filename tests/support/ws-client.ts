// A WebSocket client for tests: connects through the real worker, folds events like the web client.
import { exports } from "cloudflare:workers";
import {
  applyEvent,
  emptyTranscript,
  type Transcript,
} from "../../durable-objects/protocol/transcript";
import {
  type ClientFrame,
  ServerFrame,
  type ServerEvent,
  isServerEvent,
} from "../../durable-objects/protocol/wire";
import { BASE, bearer, createConversation, type TestUser } from "./helpers";

export class TestSocket {
  readonly frames: ServerFrame[] = [];
  private waiters: Array<() => void> = [];
  closed = false;
  /** The close code the server sent, once closed. */
  closeCode: number | null = null;
  /** The close reason the server sent with it (4403: removed or left). */
  closeReason = "";

  private constructor(readonly ws: WebSocket) {
    ws.addEventListener("message", (m) => {
      this.frames.push(ServerFrame.parse(JSON.parse(String(m.data))));
      this.wake();
    });
    ws.addEventListener("close", (e) => {
      this.closed = true;
      this.closeCode = e.code;
      this.closeReason = e.reason;
      this.wake();
    });
  }

  static async open(
    user: TestUser,
    conversationId: string,
    headers: Record<string, string> = {},
  ): Promise<TestSocket> {
    const res = await exports.default.fetch(`${BASE}/api/conversations/${conversationId}/ws`, {
      headers: { upgrade: "websocket", ...bearer(user), ...headers },
    });
    if (!res.webSocket) throw new Error(`no websocket: ${res.status} ${await res.text()}`);
    res.webSocket.accept();
    return new TestSocket(res.webSocket);
  }

  /** Opens, asks for the whole log and waits until the server says the socket is synced. */
  static async openSynced(user: TestUser, conversationId: string): Promise<TestSocket> {
    const ws = await TestSocket.open(user, conversationId);
    ws.send({ type: "resume", lastSeq: 0 });
    await ws.until((f) => f.some((x) => x.type === "synced"));
    return ws;
  }

  /** Opens with exactly these headers (a cookie, a ticket in `query`, or nothing). */
  static async openWith(
    conversationId: string,
    headers: Record<string, string>,
    query = "",
  ): Promise<TestSocket> {
    const res = await exports.default.fetch(
      `${BASE}/api/conversations/${conversationId}/ws${query}`,
      { headers: { upgrade: "websocket", ...headers } },
    );
    if (!res.webSocket) throw new Error(`no websocket: ${res.status} ${await res.text()}`);
    res.webSocket.accept();
    return new TestSocket(res.webSocket);
  }

  send(frame: ClientFrame | string): void {
    this.ws.send(typeof frame === "string" ? frame : JSON.stringify(frame));
  }

  events(): ServerEvent[] {
    return this.frames.filter(isServerEvent);
  }

  /** Resolves once `predicate` holds for the frames received so far. */
  async until(predicate: (frames: ServerFrame[]) => boolean, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.frames)) {
      if (this.closed) throw new Error("socket closed while waiting");
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`timed out; last frames: ${JSON.stringify(this.frames.slice(-3))}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.ws.close(1000, "test");
  }

  private wake() {
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) w();
  }
}

export const turnEnded = (frames: ServerFrame[]) =>
  frames.some((f) => f.type === "turn_ended" || f.type === "turn_failed");

export function fold(events: ServerEvent[]): Transcript {
  return events.reduce(applyEvent, emptyTranscript());
}

/**
 * One message in a new conversation of `user` (made with `conversation`, e.g. its settings), over
 * its socket: every event until its turn ended.
 */
export async function turnInNewConversation(
  user: TestUser,
  text: string,
  conversation: Record<string, unknown> = {},
): Promise<ServerEvent[]> {
  const conv = await createConversation(user, conversation);
  const ws = await TestSocket.open(user, conv.id);
  ws.send({ type: "resume", lastSeq: 0 });
  ws.send({ type: "send", clientMessageId: crypto.randomUUID(), text });
  await ws.until(turnEnded, 30_000);
  ws.close();
  return ws.events();
}
