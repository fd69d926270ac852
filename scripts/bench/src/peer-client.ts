// A client of the peer (agents-starter's AIChatAgent) that does what its React client
// (`useAgentChat` from `agents/ai-react`) does on the wire: the socket at /agents/chat-agent/<name>,
// a `cf_agent_use_chat_request` carrying every message of the conversation, the answer streamed
// back as `cf_agent_use_chat_response` frames (each body one UI message chunk) until `done`, and
// the stored messages from GET …/get-messages when a page (re)opens. Frames are JSON-parsed only,
// as our own bench client does.
import { z } from "zod";
import { errorCause, type TurnTimes } from "./e2e-session";

/** The agent class's name as the URL spells it (ChatAgent → chat-agent). */
const AGENT_PATH = "/agents/chat-agent";

const ChatResponse = z.object({
  type: z.literal("cf_agent_use_chat_response"),
  id: z.string(),
  body: z.string().optional(),
  done: z.boolean().optional(),
  error: z.boolean().optional(),
});
/** A stored UI message; the bench only counts them and hands them back. */
const StoredMessages = z.array(z.looseObject({ id: z.string(), role: z.string() }));
type StoredMessage = z.infer<typeof StoredMessages>[number];

const socketUrl = (base: string, name: string) =>
  `${base.replace("http", "ws")}${AGENT_PATH}/${encodeURIComponent(name)}`;

async function storedMessages(base: string, name: string): Promise<StoredMessage[]> {
  const res = await fetch(`${base}${AGENT_PATH}/${encodeURIComponent(name)}/get-messages`);
  if (!res.ok) throw new Error(`get-messages: ${res.status} ${await res.text()}`);
  return StoredMessages.parse(await res.json());
}

function openSocket(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url);
  return new Promise((resolve, reject) => {
    ws.addEventListener("open", () => resolve(ws));
    ws.addEventListener("error", (e) => reject(new Error(`websocket error: ${errorCause(e)}`)));
  });
}

export class PeerSession {
  private listeners = new Set<(raw: string) => void>();
  private closed = false;
  private constructor(
    private readonly ws: WebSocket,
    private readonly base: string,
    private readonly name: string,
    private messages: StoredMessage[],
  ) {
    ws.addEventListener("message", (m) => {
      for (const l of this.listeners) l(String(m.data));
    });
    ws.addEventListener("close", () => {
      this.closed = true;
      for (const l of this.listeners) l("");
    });
  }

  /** Opens the agent `name` (a new name is a new conversation); `messages` as already known. */
  static async open(base: string, name: string, messages: StoredMessage[] = []) {
    return new PeerSession(await openSocket(socketUrl(base, name)), base, name, messages);
  }

  /**
   * A reopened page: the socket and the stored messages, fetched at the same time as the React
   * client does. Resolves once both are there, with how many messages and characters came.
   */
  static async reopen(
    base: string,
    name: string,
  ): Promise<{ session: PeerSession; messages: number; chars: number }> {
    let chars = 0;
    const [ws, messages] = await Promise.all([
      openSocket(socketUrl(base, name)),
      fetch(`${base}${AGENT_PATH}/${encodeURIComponent(name)}/get-messages`).then(async (res) => {
        const text = await res.text();
        chars = text.length;
        if (!res.ok) throw new Error(`get-messages: ${res.status} ${text}`);
        return StoredMessages.parse(JSON.parse(text));
      }),
    ]);
    return {
      session: new PeerSession(ws, base, name, messages),
      messages: messages.length,
      chars,
    };
  }

  /**
   * Sends `text` with the conversation so far; resolves with ms from the send to the first text
   * delta and to the `done` frame. With `keepHistory`, reads the stored messages afterwards
   * (untimed) so the next request carries the whole conversation, as the React client's would.
   */
  async turn(text: string, timeoutMs = 60_000, keepHistory = true): Promise<TurnTimes> {
    const id = crypto.randomUUID();
    const user = { id: crypto.randomUUID(), role: "user", parts: [{ type: "text", text }] };
    const sent = performance.now();
    let firstDelta: number | null = null;
    const ended = new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => finish(() => reject(new Error("timed out"))), timeoutMs);
      const finish = (then: () => void) => {
        clearTimeout(timer);
        this.listeners.delete(listen);
        then();
      };
      const listen = (raw: string) => {
        if (this.closed) return finish(() => reject(new Error("closed")));
        if (!raw.includes('"cf_agent_use_chat_response"')) return;
        const frame = ChatResponse.safeParse(JSON.parse(raw));
        if (!frame.success || frame.data.id !== id) return;
        if (frame.data.error)
          return finish(() => reject(new Error(`turn failed: ${frame.data.body ?? ""}`)));
        if (firstDelta === null && frame.data.body?.includes('"text-delta"'))
          firstDelta = performance.now() - sent;
        if (frame.data.done) finish(() => resolve(performance.now() - sent));
      };
      this.listeners.add(listen);
    });
    this.ws.send(
      JSON.stringify({
        type: "cf_agent_use_chat_request",
        id,
        init: {
          method: "POST",
          body: JSON.stringify({ messages: [...this.messages, user], trigger: "submit-message" }),
        },
      }),
    );
    const final = await ended;
    if (keepHistory) this.messages = await storedMessages(this.base, this.name);
    return { firstDelta, final };
  }

  /** Messages the client holds (after `turn` with `keepHistory`: what the server stored). */
  messageCount(): number {
    return this.messages.length;
  }

  close(): void {
    this.ws.close();
  }
}
