// One conversation's live connection: resumes from the last event it saw, reconnects by itself
// with backoff, and resends messages until the server acknowledges them (it dedupes by id).
// A socket can hang on a dead network for minutes, so the browser's offline and online events
// drop it at once and reconnect as soon as the network is back. With an outbox (outbox.ts) the
// unacknowledged sends also outlive the page: a reload shows them waiting and resends them.
import {
  applyEvents,
  emptyTranscript,
  type Transcript,
} from "../../../durable-objects/protocol/transcript";
import {
  type ApprovalAnswer,
  type ClientFrame,
  isServerEvent,
  ServerFrame,
  type ServerEvent,
} from "../../../durable-objects/protocol/wire";
import type { ElicitationAnswer } from "../../../durable-objects/protocol/elicitation";
import { handshakeQuery } from "../../../durable-objects/protocol/handshake-resume";
import {
  CLOSE_ACCESS_REVOKED,
  CLOSE_CONVERSATION_GONE,
  CLOSE_CREATE_REFUSED,
  CLOSE_REASON_LEFT,
} from "../../../durable-objects/protocol/close-codes";
import {
  conversationCreated,
  creationQuery,
  creationRefused,
} from "../conversations/new-conversation";
import { FrameBatch } from "./frame-batch";
import type { Outbox } from "./outbox";

export type Connection =
  | "connecting"
  | "online"
  | "offline"
  | "signed-out"
  | "access-revoked"
  /** The user left this shared conversation (in another tab, say). */
  | "left"
  /** The conversation was deleted (by its owner, here or elsewhere) while it was open. */
  | "deleted"
  /** A new conversation its socket could not create; the error says why. */
  | "not-created";
export type Presence = Extract<ServerFrame, { type: "presence" }>;

/** Close codes after which reconnecting cannot help (with close-codes.ts's): the session or
 * token the socket was opened with was revoked (signed out, "sign out everywhere"). */
const CREDENTIAL_REVOKED = 4401;
/** While catching up, events are shown once the catch-up is complete, or this often until then. */
const CATCH_UP_SHOWN_EVERY_MS = 500;

const DELETED_FILE =
  "A file of this message was deleted before it went: its chip says which. Remove it, or " +
  "attach it again, and send.";

const OTHER_ACCOUNT =
  "Another account has signed in on this browser, in another tab, so your messages waiting " +
  "here were not sent. Reload the page to continue as that account, or sign in again as yourself.";

export interface LiveState {
  transcript: Transcript;
  connection: Connection;
  error: string | null;
  /** Who has the conversation open, and this user's own role in it (shared conversations). */
  presence: Presence | null;
  /** The last send the server refused (a limit, say): its text and files go back in the composer. */
  refused: RefusedSend | null;
  /**
   * Sends the server has not acknowledged yet (sent again on reconnect), oldest first; once the
   * conversation is gone (deleted, left, no longer shared), those that were never sent.
   */
  pending: readonly PendingSend[];
}

/** A send on its way: shown while offline, so a message sent then does not seem lost. */
export interface PendingSend {
  clientMessageId: string;
  text: string;
  files: number;
}

/** A send the server refused: its text, and the artifact ids of the files it carried. */
export interface RefusedSend {
  clientMessageId: string;
  text: string;
  attachments: readonly string[];
}

export class LiveConversation {
  private ws: WebSocket | null = null;
  private state: LiveState = {
    transcript: emptyTranscript(),
    connection: "connecting",
    error: null,
    presence: null,
    refused: null,
    pending: [],
  };
  private typingNow = false;
  private unacked = new Map<string, ClientFrame>();
  /**
   * Sends in the outbox (this tab's, or found there after a reload or from another tab): resent
   * on a (re)connect only if still there. Gone means another tab heard back about it, or the user
   * signed out elsewhere: it is not sent (again) from here.
   */
  private readonly kept = new Set<string>();
  private attempts = 0;
  private closed = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Events are folded and shown once a frame, however many arrive in it. */
  private readonly events = new FrameBatch<ServerEvent>((events) =>
    this.set({ transcript: applyEvents(this.state.transcript, events) }),
  );

  constructor(
    private readonly conversationId: string,
    private readonly onChange: (s: LiveState) => void,
    /** The signed-in user's kept sends in this conversation (none: kept while the page is). */
    private readonly outbox: Outbox | null = null,
    /**
     * False once another account has signed in on this browser (in another tab): the socket
     * would carry their cookie, so this page's messages are not sent on it.
     */
    private readonly stillSignedIn: () => boolean = () => true,
  ) {
    addEventListener("offline", this.dropped);
    addEventListener("online", this.reconnectNow);
    if (outbox) {
      addEventListener("storage", this.otherTab);
      this.adopt();
    }
    this.connect();
  }

  /** Sends a message, with the artifact ids of the files uploaded for it. */
  send(text: string, attachments: readonly string[] = []): void {
    const frame: ClientFrame = {
      type: "send",
      clientMessageId: crypto.randomUUID(),
      text,
      ...(attachments.length > 0 && { attachments: [...attachments] }),
    };
    this.unacked.set(frame.clientMessageId, frame);
    if (this.outbox?.keep(frame)) this.kept.add(frame.clientMessageId);
    this.set({ pending: this.pendingSends() });
    this.write(frame);
  }

  /** Takes the outbox's sends as its own, and lets go of those no longer in it. */
  private adopt() {
    const kept = this.outbox?.read() ?? [];
    const ids = new Set(kept.map((f) => f.clientMessageId));
    for (const id of this.kept)
      if (!ids.has(id)) {
        this.kept.delete(id);
        this.unacked.delete(id);
      }
    for (const frame of kept)
      if (!this.unacked.has(frame.clientMessageId)) {
        this.unacked.set(frame.clientMessageId, frame);
        this.kept.add(frame.clientMessageId);
      }
    this.set({ pending: this.pendingSends() });
  }

  /** Another tab changed the outbox: a send written there, acknowledged, or a sign-out. */
  private readonly otherTab = (e: StorageEvent) => {
    if (e.key === this.outbox?.key || e.key === null) this.adopt();
  };

  /** A send heard back about (acknowledged or refused): no tab sends it again. */
  private settled(clientMessageId: string) {
    this.unacked.delete(clientMessageId);
    this.kept.delete(clientMessageId);
    this.outbox?.forget(clientMessageId);
  }

  private pendingSends(): PendingSend[] {
    return [...this.unacked.values()].flatMap((f) =>
      f.type === "send"
        ? [{ clientMessageId: f.clientMessageId, text: f.text, files: f.attachments?.length ?? 0 }]
        : [],
    );
  }

  cancel(): void {
    this.write({ type: "cancel" });
  }

  /** Tells the others in the conversation this user is (or stopped) typing; sent on change only. */
  typing(typing: boolean): void {
    if (this.typingNow === typing) return;
    this.typingNow = typing;
    this.write({ type: "typing", typing });
  }

  /**
   * Answers a tool call's approval request; every open tab sees the decision as an event.
   * False when offline: nothing was sent, and the card stays answerable.
   */
  answerApproval(approvalId: string, answer: ApprovalAnswer): boolean {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.write({ type: "approval", approvalId, ...answer });
    return true;
  }

  /** Answers an MCP server's question (false when offline, as for approvals). */
  answerElicitation(elicitationId: string, answer: ElicitationAnswer): boolean {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.write({ type: "elicitation", elicitationId, ...answer });
    return true;
  }

  close(): void {
    this.stop();
    this.ws?.close(1000, "closed");
  }

  private stop() {
    this.closed = true;
    this.events.drop();
    clearTimeout(this.timer);
    removeEventListener("offline", this.dropped);
    removeEventListener("online", this.reconnectNow);
    removeEventListener("storage", this.otherTab);
  }

  /**
   * Stops for good: the conversation is no longer the user's (deleted, or not shared with them).
   * What waits to be sent never can be: no tab sends it, not even should it be shared with them
   * again some day; `pending` keeps it on this page, which says it was not sent.
   */
  private gone() {
    this.stop();
    this.unacked.clear();
    this.kept.clear();
    this.outbox?.clear();
  }

  /** Stops for good: a new socket would be refused until the user signs in again. */
  private signedOut() {
    this.stop();
    this.set({ connection: "signed-out" });
  }

  private readonly dropped = () => {
    this.set({ connection: "offline" });
    this.ws?.close(4000, "offline");
  };

  private readonly reconnectNow = () => {
    const ws = this.ws;
    if (ws && (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING)) return;
    clearTimeout(this.timer);
    this.attempts = 1;
    this.connect();
  };

  private set(patch: Partial<LiveState>) {
    this.state = { ...this.state, ...patch };
    this.onChange(this.state);
  }

  private write(frame: ClientFrame) {
    if (this.ws?.readyState !== WebSocket.OPEN) return;
    if (frame.type === "send" && !this.stillSignedIn()) {
      this.set({ error: OTHER_ACCOUNT });
      return;
    }
    this.ws.send(JSON.stringify(frame));
  }

  private connect() {
    if (this.closed) return;
    this.set({ connection: this.attempts === 0 ? "connecting" : "offline" });
    // The resume rides on the handshake (handshake-resume.ts): the replay starts as the socket
    // opens. Finished answers come without their deltas (their message_completed has the text),
    // and the replay in a few large frames rather than one per event.
    const resume = handshakeQuery({
      lastSeq: this.state.transcript.lastSeq,
      compact: true,
      presence: true,
      batch: true,
    });
    // A new conversation's socket creates it (new-conversation.ts) until one has been synced.
    const creating = creationQuery(this.conversationId);
    const query = creating ? `${resume}&${creating}` : resume;
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/conversations/${this.conversationId}/ws?${query}`;
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.attempts = 0;
      this.events.flush();
      this.events.holdMs = CATCH_UP_SHOWN_EVERY_MS;
      this.typingNow = false;
      // A kept send another tab has had acknowledged meanwhile (or a sign-out erased) stays unsent.
      if (this.kept.size > 0) this.adopt();
      for (const frame of this.unacked.values()) this.write(frame);
    });
    ws.addEventListener("message", (m) => {
      const parsed = ServerFrame.safeParse(JSON.parse(String(m.data)));
      if (!parsed.success) return;
      const frame = parsed.data;
      if (isServerEvent(frame)) return this.events.add(frame);
      if (frame.type === "replay") {
        for (const event of frame.events) this.events.add(event);
        return;
      }
      // What follows an event is shown after it ("synced" means the replay is on screen).
      this.events.flush();
      if (frame.type === "synced") {
        conversationCreated(this.conversationId);
        this.events.holdMs = null;
        // Online clears an old error, but not why the messages still waiting were not sent.
        const held = this.pendingSends().length > 0 && !this.stillSignedIn();
        this.set({ connection: "online", error: held ? OTHER_ACCOUNT : null });
      } else if (frame.type === "ack") {
        this.settled(frame.clientMessageId);
        this.set({ pending: this.pendingSends() });
      } else if (frame.type === "presence") this.set({ presence: frame });
      else if (frame.type === "frame_error") {
        // A refused send (a viewer's) is not resent on the next connection.
        if (frame.error.code === "forbidden") {
          this.unacked.clear();
          this.kept.clear();
          this.outbox?.clear();
        }
        // Nor is one refused by name: the user gets its text and files back to send when they choose.
        const id = frame.clientMessageId;
        const refused = id === undefined ? undefined : this.unacked.get(id);
        if (id !== undefined) this.settled(id);
        this.set({
          // The API's words for a file id that is not there speak to API clients, not to someone
          // who deleted an attached file in the artifact pane before sending.
          error:
            frame.error.code === "invalid_attachment" && refused?.type === "send"
              ? DELETED_FILE
              : frame.error.message,
          pending: this.pendingSends(),
          ...(id !== undefined &&
            refused?.type === "send" && {
              refused: {
                clientMessageId: id,
                text: refused.text,
                attachments: refused.attachments ?? [],
              },
            }),
        });
      }
    });
    ws.addEventListener("close", (e) => {
      if (this.closed) return;
      // Refused while still to be created (a created one that is deleted later is just gone).
      const refused = e.code === CLOSE_CREATE_REFUSED || e.code === CLOSE_CONVERSATION_GONE;
      if (refused && creationQuery(this.conversationId) !== null) {
        creationRefused(
          this.conversationId,
          this.state.error ?? "The conversation was not created.",
        );
        this.stop();
        return this.set({ connection: "not-created" });
      }
      if (e.code === CLOSE_CONVERSATION_GONE) {
        this.gone();
        return this.set({ connection: "deleted", presence: null });
      }
      if (e.code === CREDENTIAL_REVOKED) return this.signedOut();
      if (e.code === CLOSE_ACCESS_REVOKED) {
        this.gone();
        // The owner stopped sharing it, or the user left it themself (the reason says which).
        const connection = e.reason === CLOSE_REASON_LEFT ? "left" : "access-revoked";
        return this.set({ connection, presence: null });
      }
      this.set({ connection: "offline" });
      const delay = Math.min(500 * 2 ** this.attempts++, 8000);
      this.timer = setTimeout(() => this.connect(), delay);
    });
  }
}
