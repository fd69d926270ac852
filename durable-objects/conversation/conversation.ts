// The Conversation Durable Object: one per conversation. It owns the sockets, the event log,
// the turn queue and the outbox to D1, and delegates the turn itself to `runTurn`.
import { Agent, type Connection, type ConnectionContext, type WSMessage } from "agents";
import { z } from "zod";
import type { Env } from "../../shared/env";
import { DEFAULT_MAX_STEPS } from "../protocol/conversation-settings";
import { type AttachmentPart, type ChatMessage, messageText } from "../protocol/messages";
import {
  type ApprovalAnswer,
  type ArtifactChange,
  type ClientFrame,
  type ErrorInfo,
  type NewServerEvent,
  type SendMessage,
  type ServerControl,
  type ServerEvent,
} from "../protocol/wire";
import { SocketGate, type SocketState, withoutAbort } from "./socket-gate";
import { refuseChatOverAllowance } from "./daily-allowance";
import { logTurnEnded } from "./operator-log";
import { AuditLog } from "./audit-log";
import { conversationTimings } from "./timings-log";
import { enqueue, enqueueUsage } from "./outbox";
import { type SseSubscriber } from "./sse";
import { SseGate } from "./sse-gate";
import { DeltaCoalescer, isDelta } from "./delta-coalescer";
import { serveSseRequest } from "./sse-requests";
import { hasConversationTables } from "./schema";
import { ConversationStore, type TurnRow } from "./store";
import type { LoopState } from "../loop/types";
import { artifactSaver } from "./artifacts";
import { historyOptions, pdfTextCache } from "./history-options";
import { titleFromFirstMessage } from "./first-message-title";
import { dropCheckpoint, loadCheckpoint, saveCheckpoint, toolCallLog } from "./loop-storage";
import { forgetRecoveryAttempts, recoverInterruptedTurn } from "./recovery";
import {
  cutSinceCheckpoint,
  dropCallNote,
  forgetCutCalls,
  noteCallUnderWay,
} from "./call-under-way";
import { modelPrices } from "./model-prices";
import { cancelApprovalExpiries } from "./approval-expiry";
import { foldedContent, turnStarted } from "./turn-log";
import type { ConnectionPool, McpCounters } from "./tool-runner";
import type { ConversationInfo, FinalOutcome, TurnOutcome } from "./turn";
import {
  approvalGate,
  ApprovalStore,
  approvalTtlSeconds,
  cancelParkedTurn,
  decide,
  type DecideResult,
  settledApproval,
} from "./approvals";
import { answeredBy } from "./answered-by";
import { setUserToolPolicy } from "./user-tool-policies";
import type { ElicitationAnswer } from "../protocol/elicitation";
import { announcePromptTools } from "./prompt-tools-notice";
import { noteRefusal, refusedNativeTools } from "./provider-refusals";
import {
  type AnswerResult,
  elicitationTimeoutSeconds,
  Elicitations,
  settledQuestion,
} from "./elicitations";
import type { BranchRequest } from "../protocol/branches";
import { BranchError, branchSource } from "./branching/branch-source";
import { type BranchSeed, seedBranch } from "./branching/seed-branch";
import type { SourceResult } from "./branching/create-branch";
import { type ConversationRole, seesUsage } from "../protocol/roles";
import { bodyForViewer, eventForViewer } from "../protocol/viewer-view";
import { type MemberAccess, userName } from "../../shared/db/conversation-access";
import { positiveSetting } from "../../shared/positive-setting";
import { broadcastPresence, type MemberSocketState, nameFromHeader, stateOf } from "./presence";
import { applyAccessChange, DELETED_COMMENT, frameAccess, roleFromHeader } from "./member-access";
import { credentialFromHeader } from "./socket-credential";
import { resolveAttachments } from "./attachment-refs";
import { ownerOverAllowance } from "./owner-allowance";
import { MessageAuthors, withAuthorNames } from "./message-authors";
import { checkSend, reusedClientMessageId, type SendChecks } from "./send-checks";
import { EarlyTurnReads } from "./early-turn-reads";
import { connectedMembers, MemberRecheck } from "./member-recheck";
import { readTurnContext } from "./turn-reads";
import { sendBatch } from "./send-batch";
import { CONVERSATION_ROW_SQL, conversationFromRow, TurnSetupError } from "./conversation-row";
import { replayFrame } from "./replay-frame";
import { markRefused, withoutRefused } from "./refused-exchanges";
import { resumePastEnd } from "./resume-point";
import { handshakeResume, type HandshakeResume } from "../protocol/handshake-resume";
import { OpenSockets } from "./open-sockets";
import { LiveSettings, ownerSettings } from "./live-settings";
import { keepAliveIfLong } from "./late-keep-alive";
import { CLOSE_CONVERSATION_GONE } from "../protocol/close-codes";

/** How long a turn may run before its user's message is written to D1 (else: as it ends). */
export const FIRST_WRITE_AFTER_MS = 1_000;
/** How long before its turn's row a turn's D1 reads may have gone out (early-turn-reads.ts). */
const SETTINGS_READ_LEAD_MS = 5_000;
/** Events per `replay` frame (and per read of the log) when a socket catches up. */
const REPLAY_BATCH = 1_000;

type ConnState = SocketState;

export class Conversation extends Agent<Env> {
  static override options = { sendIdentityOnConnect: false };

  #store: ConversationStore | undefined;
  #approvals: ApprovalStore | undefined;
  #elicitations: Elicitations | undefined;
  #abort: AbortController | null = null;
  /** The running turn's view of the owner's MCP servers and tool policies. */
  #liveSettings: LiveSettings | null = null;
  /** When the API last said the owner's MCP settings changed (ms; 0: not since start-up). */
  #settingsChangedAt = 0;
  #sse = new Set<SseSubscriber>();
  /** Deltas held up to COALESCE_MS to go out as one event (delta-coalescer.ts). */
  #deltas = new DeltaCoalescer((e) => this.publish(e));
  /** The outbox flush under way, and the one that follows it for rows it may have missed. */
  #flushing: Promise<void> | null = null;
  #flushAgain: Promise<void> | null = null;
  /** The open sockets, listed once until one opens or closes (open-sockets.ts). */
  #open = new OpenSockets(() => this.getConnections());
  #mcp: ConnectionPool = new Map();
  /** The pending check that closes idle MCP connections, if one is scheduled. */
  #mcpIdleCheck: { id: string; due: number } | null = null;
  /** MCP handshakes made by this instance (figures for tests and the bench). */
  readonly mcpCounters: McpCounters = { initialize: 0, toolsList: 0 };
  /**
   * FIRST_WRITE_AFTER_MS for this instance. Tests that count a turn's D1 writes raise it, so a
   * loaded machine that streams slower than the threshold does not add a write to their count.
   */
  firstWriteAfterMs = FIRST_WRITE_AFTER_MS;
  /** A new message's access read and checks (send-checks.ts), started as its frame arrived. */
  #sendReads = new WeakMap<
    ClientFrame,
    { access?: Promise<MemberAccess>; checks: Promise<SendChecks | null> }
  >();
  /** A new message's turn gets its D1 reads made while the message is checked. */
  #earlyRead = new EarlyTurnReads(() => readTurnContext(this.env, this.name));

  get store(): ConversationStore {
    return (this.#store ??= new ConversationStore(this.ctx.storage.sql));
  }

  #audit: AuditLog | undefined;
  get audit(): AuditLog {
    return (this.#audit ??= new AuditLog(this.store.sql, this.env.AUDIT_FULL_REQUESTS === "true"));
  }

  #sockets: SocketGate | undefined;
  get sockets(): SocketGate {
    return (this.#sockets ??= new SocketGate(
      () => this.store.sql,
      this.env.DB,
      () => this.#open.list(),
    ));
  }

  #authors: MessageAuthors | undefined;
  /** Who wrote each user message (message-authors.ts). */
  get authors(): MessageAuthors {
    return (this.#authors ??= new MessageAuthors(this.store.sql));
  }

  #memberRecheck: MemberRecheck | undefined;
  /** Members' roles read again while events stream to them (member-recheck.ts). */
  private get memberRecheck(): MemberRecheck {
    return (this.#memberRecheck ??= new MemberRecheck({
      db: this.env.DB,
      conversationId: this.name,
      members: () => connectedMembers(this.#open.list(), this.#sse),
      apply: (userId, role, left) => this.accessChanged(userId, role, left),
    }));
  }
  #sseGate: SseGate | undefined;
  get sseGate(): SseGate {
    return (this.#sseGate ??= new SseGate(this.env.DB, this.#sse));
  }

  override shouldSendProtocolMessages(): boolean {
    return false;
  }

  override async onStart(): Promise<void> {
    // A fresh (or wiped) object has nothing to recover; do not create tables just to look.
    if (!hasConversationTables(this.ctx.storage.sql)) return;
    // Questions asked during calls the restart cut off: their calls are reported interrupted.
    this.elicitations.withdrawLeftovers();
    recoverInterruptedTurn({
      store: this.store,
      emit: (e) => this.emit(e),
      completeTurn: (turn, outcome) => this.completeTurn(turn, outcome),
      startTurn: (turn, resumed) => this.startTurn(turn, resumed),
      isParked: (turn) => this.approvals.pending(turn.id).length > 0,
      prices: () => modelPrices(this.env),
    });
    this.pump();
    if (this.store.outboxSize() > 0) void this.flushOutboxTask();
  }

  // ---------- WebSocket ----------

  override onConnect(connection: Connection, ctx: ConnectionContext): void {
    this.#open.changed();
    this.rememberApiBase(ctx.request.url);
    this.sockets.admit(connection, ctx);
    // The worker checked the role before the upgrade; a socket without one is not let in.
    const role = roleFromHeader(ctx.request.headers);
    if (!role) return connection.close(1008, "no role in this conversation");
    const name = nameFromHeader(ctx.request.headers);
    connection.setState((s: MemberSocketState | null) => ({
      ...s,
      synced: false,
      role,
      ...(name !== undefined && { name }),
    }));
    // The API worker checked the credential and the query for this very handshake.
    const asked = handshakeResume(new URL(ctx.request.url));
    if (asked.ok && asked.resume && stateOf(connection)?.credential)
      this.resume(connection, asked.resume);
  }

  override onMessage(connection: Connection, raw: WSMessage): void {
    this.sockets.receive(
      connection,
      raw,
      (frame) => this.handleFrame(connection, frame),
      (frame) => this.prepareFrame(connection, frame),
    );
  }

  // Defining this handler means `agents` installs none of its own: hand the rest on to it.
  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    if (this.sockets.refuseLibraryFrame(ws, message)) return;
    return this.lifecycle.webSocketMessage(ws, message);
  }

  override onClose(connection: Connection, code: number): void {
    this.#open.changed();
    this.sockets.closed(connection, code);
    broadcastPresence(() => this.#open.list(), connection.id);
  }

  /**
   * The owner shared the conversation with a user, changed their role or removed them (null), or
   * the user `left` it: their open sockets take the new role or close at once (saying which of
   * removed and left), and everyone's presence follows.
   */
  accessChanged(userId: string, role: ConversationRole | null, left = false): void {
    if (applyAccessChange(this.#open.list(), this.#sse, userId, role, left))
      broadcastPresence(() => this.#open.list());
  }

  /**
   * The owner changed their MCP servers or tool policies in Settings: a running turn reads them
   * again before its next call (a call under way may finish). Without a turn, nothing to do.
   */
  mcpSettingsChanged(): void {
    this.#settingsChangedAt = Date.now();
    this.#liveSettings?.changed();
  }

  /** A ticket opens one socket: the API worker claims its id here before the upgrade. */
  claimTicket(ticketId: string, expiresAt: number): boolean {
    return this.sockets.claimTicket(ticketId, expiresAt);
  }

  private async handleFrame(connection: Connection, frame: ClientFrame): Promise<void> {
    // A new message's reads and checks went out as the frame arrived (prepareFrame).
    const early = this.#sendReads.get(frame);
    const checks =
      frame.type === "send" ? (early?.checks ?? this.startSendChecks(connection, frame)) : null;
    const access = await frameAccess(this.env.DB, this.name, connection, frame, early?.access);
    if (!access.ok) {
      // A socket closed for lost access has nobody left to tell.
      try {
        this.sendControl(connection, { type: "frame_error", error: access.error });
      } catch {
        // Closed.
      }
      return;
    }
    switch (frame.type) {
      case "resume":
        return this.resume(connection, frame);
      case "send": {
        const checked = await checks;
        if (checked?.refused) {
          this.#earlyRead.drop();
          return this.sendControl(connection, {
            type: "frame_error",
            error: checked.refused,
            clientMessageId: frame.clientMessageId,
          });
        }
        const ack = await this.acceptSend(frame, checked?.author);
        if ("error" in ack) {
          this.#earlyRead.drop();
          return this.sendControl(connection, {
            type: "frame_error",
            ...ack,
            clientMessageId: frame.clientMessageId,
          });
        }
        this.setTyping(connection, false);
        return this.sendControl(connection, ack);
      }
      case "cancel":
        this.cancelTurn();
        return;
      case "ping":
        return this.sendControl(connection, { type: "pong" });
      case "approval": {
        const result = await this.decideApproval(frame.approvalId, frame, {
          via: "websocket",
          ...this.deciderOf(connection),
          role: access.role,
        });
        if (!result.ok)
          this.sendControl(connection, {
            type: "frame_error",
            error: { code: result.code, message: result.message },
          });
        return;
      }
      case "elicitation": {
        const result = await this.answerElicitation(frame.elicitationId, frame, {
          via: "websocket",
          ...this.deciderOf(connection),
        });
        if (!result.ok)
          this.sendControl(connection, {
            type: "frame_error",
            error: { code: result.code, message: result.message },
          });
        return;
      }
      case "branch": {
        const userId = (connection.state as SocketState | null)?.credential?.userId;
        if (!userId) return;
        const { type: _branch, ...request } = frame;
        const { branchFromFrame } = await import("./branching/branch-frame");
        return this.sendControl(
          connection,
          await branchFromFrame({
            env: this.env,
            userId,
            originId: this.name,
            request,
            readSource: async (point) => this.branchSource(point),
          }),
        );
      }
      case "typing":
        // A viewer cannot write: "is typing" would promise a message that cannot come.
        if (access.role === "viewer") return;
        return this.setTyping(connection, frame.typing);
    }
  }

  /**
   * Serves a resume: every event after `lastSeq`, then `synced`; asked for by a `resume` frame or
   * by the handshake's `?resume=` (handshake-resume.ts).
   */
  private resume(connection: Connection, frame: HandshakeResume): void {
    const pastEnd = resumePastEnd(
      { name: "lastSeq (or ?resume=)", seq: frame.lastSeq, afresh: "from 0" },
      this.store.lastSeq(),
    );
    if (pastEnd) return this.sendControl(connection, { type: "frame_error", error: pastEnd });
    if (frame.presence)
      connection.setState((s: MemberSocketState | null) => ({
        ...s,
        synced: s?.synced ?? false,
        presence: true,
      }));
    // Replay and marking the socket live happen with no await between: no event can slip by.
    let after = frame.lastSeq;
    const hideUsage = !seesUsage(stateOf(connection)?.role ?? "viewer");
    for (;;) {
      const stored = this.store.replayAfter(after, REPLAY_BATCH, frame.compact, hideUsage);
      // A viewer's budget lines lose their figures (viewer-view.ts).
      const batch = hideUsage ? stored.map((e) => ({ ...e, body: bodyForViewer(e.body) })) : stored;
      if (frame.batch) {
        if (batch.length > 0) connection.send(replayFrame(batch));
      } else for (const e of batch) connection.send(e.body);
      after = batch.at(-1)?.seq ?? after;
      // A short batch is the end of the log: no query to find that out.
      if (batch.length < REPLAY_BATCH) break;
    }
    connection.setState((s: ConnState | null) => ({ ...s, synced: true }) satisfies ConnState);
    this.sendControl(connection, {
      type: "synced",
      seq: Math.max(after, frame.lastSeq),
      busy: this.busy(),
    });
    // The name is read after the replay: catching up never waits for it.
    void this.rememberName(connection).then(() => broadcastPresence(() => this.#open.list()));
  }

  /**
   * A new message's reads go out with the re-check of the socket's credential, in one D1 batch
   * (send-batch.ts): the sender's role and name and the turn's context; its checks beside them.
   * Answers whether the credential holds. A resend of a stored message needs none of it.
   */
  private prepareFrame(connection: Connection, frame: ClientFrame): Promise<boolean> | undefined {
    if (frame.type !== "send") return undefined;
    const credential = stateOf(connection)?.credential;
    if (!credential || this.store.messageByClientId(frame.clientMessageId)) return undefined;
    const batch = sendBatch(this.env, this.name, credential, !this.busy());
    if (batch.turn) this.#earlyRead.start(frame.clientMessageId, batch.turn);
    this.#sendReads.set(frame, {
      access: batch.access,
      checks: this.startSendChecks(connection, frame, batch.name),
    });
    return batch.live;
  }

  /**
   * A new message's checks (send-checks.ts); `nameRead`, the sender's name when it was read in
   * the frame's batch. A resend of a stored message is not a new message: it is acknowledged,
   * never counted (null).
   */
  private startSendChecks(
    connection: Connection,
    frame: SendMessage,
    nameRead?: Promise<string | null>,
  ): Promise<SendChecks | null> {
    const state = stateOf(connection);
    const userId = state?.credential?.userId;
    if (!userId || this.store.messageByClientId(frame.clientMessageId))
      return Promise.resolve(null);
    const checks = checkSend({
      env: this.env,
      senderId: userId,
      senderOwns: state?.role === "owner",
      ownerId: () => this.ownerId(),
      authorOf: nameRead
        ? async (id) => {
            const name = await nameRead;
            return name === null ? undefined : { id, name };
          }
        : (id) => this.authorOf(id),
    });
    // A frame refused (credential, access) never awaits its checks: their failure is not unhandled.
    checks.catch(() => undefined);
    return checks;
  }

  private sendControl(connection: Connection, frame: ServerControl): void {
    connection.send(JSON.stringify(frame));
  }

  /** The user behind a socket, for approvals and answers given over it. */
  private deciderOf(connection: Connection): { userId?: string } {
    const userId = stateOf(connection)?.credential?.userId;
    return userId ? { userId } : {};
  }

  /** A socket's person's name, for presence: read once per socket. */
  private async rememberName(connection: Connection): Promise<void> {
    const state = stateOf(connection);
    const userId = state?.credential?.userId;
    if (state?.name !== undefined || !userId) return;
    const name = await userName(this.env.DB, userId).catch(() => null);
    if (name === null) return;
    connection.setState((s: MemberSocketState | null) => ({
      ...s,
      synced: s?.synced ?? false,
      name,
    }));
  }

  private setTyping(connection: Connection, typing: boolean): void {
    if ((stateOf(connection)?.typing ?? false) === typing) return;
    connection.setState((s: MemberSocketState | null) => ({
      ...s,
      synced: s?.synced ?? false,
      typing,
    }));
    broadcastPresence(() => this.#open.list());
  }

  private async ownerId(): Promise<string> {
    return (await this.loadConversation()).userId;
  }

  /** A chat request for a message already stored: acknowledged, never refused. */
  private async isResend(request: Request): Promise<boolean> {
    const body: unknown = await request
      .clone()
      .json()
      .catch(() => null);
    const id = z.object({ clientMessageId: z.string() }).safeParse(body);
    return id.success && this.store.messageByClientId(id.data.clientMessageId) !== null;
  }

  /** Who wrote a message: shown with it to everyone the conversation is shared with. */
  private async authorOf(userId: string): Promise<ChatMessage["author"]> {
    const name = await userName(this.env.DB, userId);
    return name === null ? undefined : { id: userId, name };
  }

  // ---------- HTTP (from the API worker only) ----------

  override async onRequest(request: Request): Promise<Response> {
    this.rememberApiBase(request.url);
    const refused = await refuseChatOverAllowance(
      request,
      this.env,
      (id) => this.store.messageByClientId(id) !== null,
    );
    if (refused) return refused;
    if (new URL(request.url).pathname.endsWith("/audit"))
      return new Response(this.audit.jsonLines(), {
        headers: { "content-type": "application/x-ndjson; charset=utf-8" },
      });
    const sender = request.method === "POST" ? credentialFromHeader(request.headers) : null;
    const author = sender ? await this.authorOf(sender.userId) : undefined;
    if (new URL(request.url).pathname.endsWith("/timings"))
      return Response.json(conversationTimings(this.ctx.storage.sql));
    if (sender && !(await this.isResend(request))) {
      const ownerRefused = await ownerOverAllowance(this.env, () => this.ownerId(), sender.userId);
      if (ownerRefused)
        return Response.json(
          { error: ownerRefused.error },
          {
            status: ownerRefused.status,
            headers: { "retry-after": String(ownerRefused.retryAfterSeconds) },
          },
        );
    }
    return serveSseRequest(request, {
      store: this.store,
      subscribers: this.#sse,
      gate: this.sseGate,
      acceptMessage: (frame) => this.acceptSend(frame, author),
    });
  }

  /** Graph tools are told where the API lives; the DO learns it from the requests it serves. */
  private rememberApiBase(url: string): void {
    const origin = new URL(url).origin;
    if (this.store.getMeta("api_base") !== origin) this.store.setMeta("api_base", origin);
  }

  // ---------- messages and turns ----------

  private busy(): boolean {
    return this.store.runningTurn() !== null || this.store.queuedCount() > 0;
  }

  /** A send whose attachments are checked first (a resend of a stored message is not). */
  async acceptSend(
    frame: SendMessage,
    author?: ChatMessage["author"],
  ): Promise<Extract<ServerControl, { type: "ack" }> | { error: ErrorInfo }> {
    const stored = this.store.messageByClientId(frame.clientMessageId);
    // A resend repeats its message; other text under the same id is a client's mistake, which
    // storing nothing and answering with the old message would hide.
    if (stored && messageText(stored.content) !== frame.text)
      return { error: reusedClientMessageId(frame.clientMessageId) };
    // No await since the read: it still holds, so acceptMessage need not read it again.
    if (!frame.attachments?.length || stored) return this.acceptMessage(frame, author, [], stored);
    const resolved = await resolveAttachments(this.env.DB, this.name, frame.attachments);
    if (!resolved.ok) return { error: resolved.error };
    return this.acceptMessage(frame, author, resolved.parts);
  }

  /**
   * Stores a user message once per clientMessageId and queues its turn. `existing`: the message
   * already stored under that id, when the caller has just read it.
   */
  acceptMessage(
    frame: SendMessage,
    author?: ChatMessage["author"],
    attachments: AttachmentPart[] = [],
    existing: ChatMessage | null = this.store.messageByClientId(frame.clientMessageId),
  ): Extract<ServerControl, { type: "ack" }> {
    if (existing) {
      return {
        type: "ack",
        clientMessageId: frame.clientMessageId,
        messageId: existing.id,
        seq: existing.seq,
        duplicate: true,
        queued: false,
      };
    }
    const conversationId = this.name;
    const queued = this.busy();
    const seq = this.store.nextMessageSeq();
    const message: ChatMessage = {
      id: crypto.randomUUID(),
      role: "user",
      content: [{ type: "text", text: frame.text }, ...attachments],
      status: "complete",
      seq,
      clientMessageId: frame.clientMessageId,
      createdAt: Date.now(),
      ...(author && { author }),
    };
    const isFirst = seq === 1;
    this.store.putMessage(message);
    if (author) this.authors.remember(message.id, author);
    const opened = this.emit({ type: "user_message", message });
    const turnId = crypto.randomUUID();
    this.store.addTurn({
      id: turnId,
      userMessageId: message.id,
      assistantMessageId: crypto.randomUUID(),
      assistantSeq: seq + 1,
      startSeq: opened.seq,
      options: frame.options ?? {},
      createdAt: message.createdAt,
    });
    enqueue(this.store, { kind: "message", conversationId, message });
    if (attachments.length > 0)
      enqueue(this.store, {
        kind: "artifact_link",
        messageId: message.id,
        artifactIds: attachments.map((a) => a.artifactId),
      });
    enqueue(this.store, {
      kind: "touch",
      conversationId,
      at: message.createdAt,
      ...(isFirst && { title: titleFromFirstMessage(frame.text) }),
    });
    // A turn that starts now writes the message to D1 as it ends (runTurn's `firstWrite`): a D1
    // write beside the turn's reads and its model requests would slow them. The message waits in
    // the outbox, safe from restarts.
    if (queued) {
      this.#earlyRead.drop();
      void this.flushOutboxTask();
    } else this.#earlyRead.claim(frame.clientMessageId, turnId);
    this.pump();
    return {
      type: "ack",
      clientMessageId: frame.clientMessageId,
      messageId: message.id,
      seq,
      duplicate: false,
      queued,
    };
  }

  /** Appends an event to the log (after any deltas still held) and sends it to every live client. */
  emit(event: NewServerEvent): ServerEvent {
    this.#deltas.flush();
    return this.publish(event);
  }

  /** What the loop streams: deltas are merged for a few milliseconds, anything else goes at once. */
  private stream(event: NewServerEvent): void {
    if (isDelta(event)) this.#deltas.add(event);
    else this.emit(event);
  }

  private publish(event: NewServerEvent): ServerEvent {
    const full = this.store.appendEvent(event);
    this.audit.event(full);
    const frame = JSON.stringify(full);
    // Usage is the owner's spending: a viewer is sent none (viewer-view.ts), made once per event.
    let viewers: string | null | undefined;
    const viewerFrame = () => {
      if (viewers === undefined) {
        const shown = eventForViewer(full);
        viewers = shown === full ? frame : shown && JSON.stringify(shown);
      }
      return viewers;
    };
    for (const connection of this.#open.list()) {
      const state = connection.state as MemberSocketState | null;
      if (!state?.synced) continue;
      const text = seesUsage(state.role ?? "viewer") ? frame : viewerFrame();
      if (text !== null) {
        this.sockets.revalidateIfDue();
        try {
          connection.send(text);
        } catch {
          // A closing socket: the client catches up from the log when it reconnects.
        }
      }
    }
    for (const s of this.#sse) if (s.push(full)) this.#sse.delete(s);
    this.sseGate.revalidateIfDue();
    this.memberRecheck.dueNow();
    return full;
  }

  private cancelTurn(): void {
    if (this.#abort) return this.#abort.abort();
    this.#deltas.flush();
    // A turn parked at an approval has no run to abort: its approvals are withdrawn instead.
    const turn = this.store.runningTurn();
    if (!turn) return;
    const open = this.approvals.pending(turn.id).map((a) => a.id);
    if (!cancelParkedTurn(this.approvals, turn, (e) => this.emit(e))) return;
    void this.dropExpiries(open);
    this.completeTurn(turn, { content: foldedContent(this.store, turn), status: "cancelled" });
    this.pump();
  }

  /** Starts the next queued turn if none is running. */
  private pump(): void {
    const turn = this.store.startNextTurn();
    if (!turn) return;
    this.startTurn(turn);
  }

  /** Work the runtime must not evict the object in the middle of (late-keep-alive.ts). */
  private whileAlive<T>(work: () => Promise<T>): Promise<T> {
    return keepAliveIfLong(() => this.keepAlive(), work);
  }

  private startTurn(turn: TurnRow, resumed?: LoopState): void {
    void this.whileAlive(() => this.runTurn(turn, resumed)).finally(() => this.pump());
  }

  // ---------- approvals (see approvals.ts) ----------

  get approvals(): ApprovalStore {
    return (this.#approvals ??= new ApprovalStore(this.store.sql));
  }

  /** Stores the user's answer to an approval request and resumes the turn once none waits. */
  async decideApproval(
    approvalId: string,
    answer: ApprovalAnswer,
    by: { via: "websocket" | "rest"; userId?: string; role?: ConversationRole },
  ): Promise<DecideResult> {
    const { role, ...decider } = by;
    // "Always allow" becomes a policy of the owner's: only the owner may set it.
    const mayRemember = role === undefined || role === "owner";
    const effective = mayRemember || !answer.remember ? answer : { ...answer, remember: false };
    const result = decide(this.approvals, (e) => this.emit(e), approvalId, effective, decider);
    if (!result.ok) {
      const row = result.code === "already_decided" ? this.approvals.byId(approvalId) : null;
      if (!row) return result;
      const who = await answeredBy(this.env.DB, row.decidedBy, decider.userId);
      return { ...result, message: settledApproval(row, who) };
    }
    void this.dropExpiries([approvalId]);
    const { approval } = result;
    if (effective.remember && effective.decision === "approve") {
      await setUserToolPolicy(
        this.env.DB,
        approval.userId,
        approval.server,
        approval.tool,
        "allow",
      ).catch((err) => console.error("could not store the tool policy", err));
    }
    this.resumeParkedTurn();
    return result;
  }

  /** Called by the schedule set when the approval was requested. */
  async expireApproval(payload: { approvalId: string }): Promise<void> {
    const result = decide(
      this.approvals,
      (e) => this.emit(e),
      payload.approvalId,
      { decision: "deny" },
      { via: "expiry" },
    );
    if (result.ok) this.resumeParkedTurn();
  }

  /** Answered approvals need no expiry: their schedules would only wake the object for nothing. */
  private async dropExpiries(approvalIds: string[]): Promise<void> {
    await cancelApprovalExpiries(this, approvalIds).catch((err: unknown) =>
      console.error("could not cancel approval expiries", err),
    );
  }

  /** Resumes a parked turn whose approvals are all answered (a live run takes them itself). */
  private resumeParkedTurn(): void {
    const turn = this.store.runningTurn();
    if (!turn || this.#abort || this.approvals.pending(turn.id).length > 0) return;
    this.startTurn(turn, loadCheckpoint(this.store, turn.id)?.state);
  }

  // ---------- elicitations (see elicitations.ts) ----------

  get elicitations(): Elicitations {
    return (this.#elicitations ??= new Elicitations(this.store.sql, (e) => this.emit(e)));
  }

  /** A person's answer to a server's question (any tab, or REST); the waiting call continues. */
  async answerElicitation(
    elicitationId: string,
    answer: ElicitationAnswer,
    by: { via: "websocket" | "rest"; userId?: string },
  ): Promise<AnswerResult> {
    const { action, content } = answer;
    const result = this.elicitations.answer(
      elicitationId,
      { action, ...(content && { content }) },
      by,
    );
    if (result.ok || result.code !== "already_answered") return result;
    const row = this.elicitations.byId(elicitationId);
    if (!row) return result;
    const who = await answeredBy(this.env.DB, row.answeredBy, by.userId);
    return { ...result, message: settledQuestion(row, who) };
  }

  private elicitationBridge(turn: TurnRow, conversation: ConversationInfo) {
    const timeoutSeconds = elicitationTimeoutSeconds(
      this.env.ELICITATION_TIMEOUT_SECONDS,
      conversation.settings.elicitationTimeoutSeconds,
    );
    const context = {
      turnId: turn.id,
      messageId: turn.assistantMessageId,
      userId: conversation.userId,
      timeoutSeconds,
    };
    return {
      ask: (
        call: { callId: string; server: string; tool: string },
        params: Parameters<Elicitations["ask"]>[1],
        signal: AbortSignal,
      ) => this.elicitations.ask({ ...context, ...call }, params, signal),
      completed: (server: string, id: string) => this.elicitations.completed(server, id),
    };
  }

  private async runTurn(turn: TurnRow, resumed?: LoopState): Promise<void> {
    const abort = new AbortController();
    this.#abort = abort;
    // The turn's user's message goes to D1 as the turn ends or parks, with the rest, or once the
    // turn has run for FIRST_WRITE_AFTER_MS. Not at a step's end: the next step's model request
    // follows at once, and a D1 write beside a model request slows the answer.
    const firstWrite = setTimeout(() => void this.flushOutboxTask(), this.firstWriteAfterMs);
    // The steps and usage the turn's last checkpoint recorded, for the operator's log line at its
    // end: reading the checkpoint back would parse and check the turn's whole history.
    let checkpointed = resumed && { step: resumed.step, usage: resumed.usage };
    let outcome: TurnOutcome;
    let stored: ConversationInfo | undefined;
    try {
      const reads = await this.#earlyRead.forTurn(turn.id);
      stored = reads.conversation;
      const options = turn.options;
      const conversation: ConversationInfo = {
        ...stored,
        ...(options.provider && { provider: options.provider as ConversationInfo["provider"] }),
        ...(options.model && { model: options.model }),
        ...(options.reasoningEffort && {
          settings: { ...stored.settings, reasoningEffort: options.reasoningEffort },
        }),
      };
      // A turn picked up again after a restart was already announced.
      if (!turnStarted(this.store, turn))
        this.emitTurnStarted(turn, conversation.provider, conversation.model);
      announcePromptTools(this.store, conversation, (e) => this.emit(e));
      const saver = artifactSaver({
        conversationId: this.name,
        messageId: turn.assistantMessageId,
        bucket: this.env.ARTIFACTS,
        store: this.store,
        emit: (e) => this.emit(e),
      });
      const { pinned } = reads;
      // What Settings say of the owner's servers and policies, read again if they change.
      const live = new LiveSettings({ servers: reads.servers, policies: reads.userPolicies }, () =>
        ownerSettings(this.env, conversation.userId),
      );
      this.#liveSettings = live;
      // A change told while the turn's reads were under way (they go out as the message
      // arrives, before the turn exists) may be missing from them: read again.
      if (this.#settingsChangedAt >= turn.createdAt - SETTINGS_READ_LEAD_MS) live.changed();
      // The loop, the provider SDKs and the MCP client load on the first turn, not at start-up.
      const [{ runTurn }, tools, { storedSummary }] = await Promise.all([
        import("./turn"),
        import("./tool-runner").then(({ createToolRunner }) =>
          createToolRunner({
            env: this.env,
            conversation,
            store: this.store,
            pool: this.#mcp,
            counters: this.mcpCounters,
            apiBase: this.store.getMeta("api_base") ?? "",
            elicit: this.elicitationBridge(turn, conversation),
            registry: reads.servers,
            live,
          }),
        ),
        import("./summary"),
      ]);
      // Messages the rolling summary covers go to the model as that summary.
      const summary = storedSummary(this.store);
      outcome = await runTurn({
        env: this.env,
        turnId: turn.id,
        conversation,
        assistantMessageId: turn.assistantMessageId,
        // Earlier answers name their artifacts as they are now (renamed or deleted since).
        history: withAuthorNames(
          withoutRefused(
            this.store,
            this.store.withArtifactsNow(
              this.store
                .messages()
                .filter((m) => m.seq < turn.assistantSeq && m.seq > (summary?.upToSeq ?? 0)),
            ),
          ),
          this.authors.all(),
        ),
        summary,
        pinned,
        maxSteps: options.maxSteps ?? conversation.settings.maxSteps ?? DEFAULT_MAX_STEPS,
        queuedSince: turn.createdAt,
        signal: abort.signal,
        tools,
        calls: toolCallLog(this.store),
        approvals: approvalGate({
          approvals: this.approvals,
          turnId: turn.id,
          messageId: turn.assistantMessageId,
          userId: conversation.userId,
          conversationPolicies: conversation.settings.toolPolicies,
          userPolicies: () => live.policies,
          ttlSeconds: approvalTtlSeconds(
            this.env.APPROVAL_TTL_SECONDS,
            conversation.settings.approvalTimeoutSeconds,
          ),
          emit: (e) => this.emit(e),
          scheduleExpiry: (approvalId, at) =>
            void this.schedule(new Date(at), "expireApproval", { approvalId }),
        }),
        ...(resumed && { resumed }),
        // Started again with no checkpoint: the calls a restart cut off count in its budgets.
        ...(!resumed && { usedBefore: cutSinceCheckpoint(this.store, turn.id) }),
        emit: (e) => this.stream(e),
        onAskedAgain: (refusal) => noteRefusal(this.store, refusal, (e) => this.stream(e)),
        refusedNativeTools: (model) => refusedNativeTools(this.store, model),
        saveArtifact: (draft, source) => saver.save(draft, source),
        // The checkpoint records the log's last event: what is held belongs before it.
        checkpoint: (state) => {
          this.#deltas.flush();
          saveCheckpoint(this.store, turn.id, state);
          forgetCutCalls(this.store, turn.id);
          checkpointed = { step: state.step, usage: state.usage };
        },
        audit: {
          modelRequest: (step, provider, request) =>
            this.audit.modelRequest(turn.id, step, provider, request),
          modelResponse: (step, summary) => this.audit.modelResponse(turn.id, step, summary),
        },
        // Noted while under way: a restart cannot then make the call go uncounted.
        callUnderWay: (call) => {
          this.#deltas.flush();
          noteCallUnderWay(
            this.store,
            turn,
            {
              userId: conversation.userId,
              conversationId: conversation.id,
              provider: conversation.provider,
            },
            call,
          );
        },
        recordUsage: (u) =>
          enqueueUsage(this.store, {
            userId: conversation.userId,
            conversationId: conversation.id,
            turnId: turn.id,
            messageId: turn.assistantMessageId,
            provider: conversation.provider,
            model: conversation.model,
            ...u,
          }),
        ...historyOptions(this.store, conversation),
        apiBase: this.store.getMeta("api_base") ?? "",
      });
    } catch (err) {
      console.error("turn failed", err);
      this.#deltas.flush();
      if (!turnStarted(this.store, turn)) {
        this.emitTurnStarted(turn, "", "");
      }
      const known = err instanceof TurnSetupError;
      outcome = {
        content: foldedContent(this.store, turn),
        status: "failed",
        error: {
          code: known ? err.code : "internal",
          message: known
            ? err.message
            : "The turn failed unexpectedly; what was shown so far is kept.",
        },
      };
    } finally {
      clearTimeout(firstWrite);
      this.#abort = null;
      this.#liveSettings = null;
    }
    // A parked turn keeps the turn lock; it resumes when its approvals are answered (perhaps
    // while this run was ending).
    if (outcome.status === "parked") {
      void this.flushOutboxTask();
      return this.resumeParkedTurn();
    }
    logTurnEnded(this.env, {
      conversationId: this.name,
      turnId: turn.id,
      status: outcome.status,
      ...(outcome.error && { errorCode: outcome.error.code }),
      ...(checkpointed && { steps: checkpointed.step }),
      ...(checkpointed?.usage && { usage: checkpointed.usage }),
    });
    this.completeTurn(turn, { ...outcome, status: outcome.status });
    void this.scheduleMcpIdleCheck();
    if (outcome.status === "complete") void this.whileAlive(() => this.afterAnswer(stored));
  }

  /**
   * Housekeeping after a complete answer: the title, then the rolling summary. They use the row
   * the turn read (no D1 read after every answer, in the way of the next message's reads).
   */
  private async afterAnswer(read?: ConversationInfo): Promise<void> {
    const conversation = read ?? (await this.loadConversation().catch(() => undefined));
    if (!conversation) return;
    await this.nameConversation(conversation);
    try {
      const { updateSummaryIfDue } = await import("./summary");
      await updateSummaryIfDue({
        env: this.env,
        store: this.store,
        conversation,
        emit: (e) => this.emit(e),
        flush: () => this.flushOutboxTask(),
      });
    } catch (err) {
      console.warn("could not update the summary", err);
    }
  }

  /** After the first complete answer, a cheap model names the conversation (see titles.ts). */
  private async nameConversation(conversation: ConversationInfo): Promise<void> {
    try {
      const { nameConversationOnce } = await import("./titles");
      await nameConversationOnce({
        env: this.env,
        store: this.store,
        conversationId: this.name,
        conversation,
        emit: (e) => this.emit(e),
        flush: () => this.flushOutboxTask(),
      });
    } catch (err) {
      console.warn("could not name the conversation", err);
    }
  }

  private emitTurnStarted(turn: TurnRow, provider: string, model: string): void {
    this.emit({
      type: "turn_started",
      turnId: turn.id,
      messageId: turn.assistantMessageId,
      userMessageId: turn.userMessageId,
      order: turn.assistantSeq,
      provider,
      model,
    });
  }

  private completeTurn(turn: TurnRow, outcome: FinalOutcome): void {
    const message: ChatMessage = {
      id: turn.assistantMessageId,
      role: "assistant",
      content: outcome.content,
      status: outcome.status,
      seq: turn.assistantSeq,
      clientMessageId: null,
      createdAt: Date.now(),
    };
    this.store.putMessage(message);
    if (outcome.cutShort === "content_filter")
      markRefused(this.store, turn.userMessageId, turn.assistantMessageId);
    enqueue(this.store, { kind: "message", conversationId: this.name, message });
    enqueue(this.store, { kind: "touch", conversationId: this.name, at: message.createdAt });
    this.emit({
      type: "message_completed",
      messageId: message.id,
      content: message.content,
      status: message.status,
    });
    if (outcome.error) this.emit({ type: "turn_failed", turnId: turn.id, error: outcome.error });
    else
      this.emit({
        type: "turn_ended",
        turnId: turn.id,
        status: outcome.status,
        ...(outcome.cutShort && { cutShort: outcome.cutShort }),
      });
    const artifactIds = message.content.flatMap((p) =>
      p.type === "artifact" ? [p.artifactId] : [],
    );
    if (artifactIds.length > 0)
      enqueue(this.store, { kind: "artifact_link", messageId: message.id, artifactIds });
    this.store.finishTurn(turn.id);
    dropCheckpoint(this.store, turn.id);
    dropCallNote(this.store, turn.id);
    forgetCutCalls(this.store, turn.id);
    forgetRecoveryAttempts(this.store, turn.id);
    void this.flushOutboxTask();
  }

  private async loadConversation(): Promise<ConversationInfo> {
    return conversationFromRow(
      await this.env.DB.prepare(CONVERSATION_ROW_SQL).bind(this.name).first(),
    );
  }

  // ---------- outbox ----------

  /**
   * Flushes the outbox to D1; on failure, retries later from an alarm with backoff. Resolves once
   * the rows queued before the call have been sent (or D1 refused them): a caller may then tell
   * clients that the usage API has them.
   */
  flushOutboxTask(): Promise<void> {
    if (!this.#flushing)
      return (this.#flushing = this.flushOutboxOnce().finally(() => (this.#flushing = null)));
    // The flush under way may have read the outbox before the caller's rows: one more follows
    // it, shared by every caller that comes meanwhile.
    const again = () => {
      this.#flushAgain = null;
      return this.flushOutboxTask();
    };
    return (this.#flushAgain ??= this.#flushing.then(again, again));
  }

  private async flushOutboxOnce(): Promise<void> {
    const { flushOutbox } = await import("./outbox-flush");
    const result = await flushOutbox(this.store, this.env.DB);
    if (result.remaining > 0) {
      const attempts = this.store.pendingOutbox(1)[0]?.attempts ?? 1;
      const delaySeconds = Math.min(2 ** Math.max(0, attempts - 1), 60);
      console.warn(
        `outbox: ${result.remaining} rows wait for D1 (${result.error}); retry in ${delaySeconds}s`,
      );
      await this.schedule(delaySeconds, "flushOutboxTask");
    }
  }

  // ---------- idle MCP connections ----------

  private mcpIdleMs(): number {
    return positiveSetting("MCP_IDLE_CLOSE_MS", this.env.MCP_IDLE_CLOSE_MS) ?? 5 * 60_000;
  }

  /**
   * After a turn: end the MCP sessions (and their standing streams) once nobody uses them. A
   * check already due sooner stays: it measures idleness from each session's last use and sets
   * the next one itself, so a turn need not replace it (a cancel and a new schedule, both writes).
   */
  private async scheduleMcpIdleCheck(afterMs = this.mcpIdleMs()): Promise<void> {
    if (this.#mcp.size === 0) return;
    const due = Date.now() + afterMs;
    const pending = this.#mcpIdleCheck;
    if (pending && pending.due <= due) return;
    if (pending) await this.cancelSchedule(pending.id);
    const { id } = await this.schedule(afterMs / 1000, "closeIdleMcpConnections");
    this.#mcpIdleCheck = { id, due };
  }

  /**
   * A `schedule` callback (it outlives an evicted instance). Ends the sessions nobody uses, so a
   * user's servers do not hold one per conversation. A running turn uses its connections; it
   * schedules a check when done.
   */
  async closeIdleMcpConnections(): Promise<void> {
    this.#mcpIdleCheck = null;
    if (this.busy() || !hasConversationTables(this.ctx.storage.sql)) return;
    const { endIdleSessions } = await import("./tool-runner");
    const userId = await this.loadConversation().then(
      (c) => c.userId,
      () => null,
    );
    const next = await endIdleSessions({
      env: this.env,
      store: this.store,
      pool: this.#mcp,
      userId,
      idleMs: this.mcpIdleMs(),
    }).catch((err: unknown) => {
      console.warn("could not end idle MCP sessions", err);
      return null;
    });
    if (next !== null) await this.scheduleMcpIdleCheck(next);
  }

  // ---------- branches (branching/) ----------

  /** What a branch made at `point` takes from this conversation (the origin's side). */
  async branchSource(
    point: Pick<BranchRequest, "messageId" | "step" | "text">,
  ): Promise<SourceResult> {
    // The branch copies its artifacts from D1: rows still waiting in the outbox (a turn just
    // ended, or D1 failed and the retry has not come) go first, or the branch would lack them.
    if (this.store.outboxSize() > 0) await this.flushOutboxTask();
    try {
      return { ok: true, source: branchSource(this.store, point) };
    } catch (err) {
      if (!(err instanceof BranchError)) throw err;
      return { ok: false, code: err.code, message: err.message };
    }
  }

  /** A new branch takes in its origin's history, then makes its first move (seed-branch.ts). */
  seedBranch(seed: BranchSeed): void {
    seedBranch(
      {
        store: this.store,
        emit: (e) => this.emit(e),
        startTurn: (turn, resumed) => this.startTurn(turn, resumed),
        pump: () => this.pump(),
        acceptMessage: (frame) => this.acceptMessage(frame),
      },
      seed,
    );
  }

  // ---------- artifacts changed over REST ----------

  /** The API worker changed an artifact: every open tab and event stream hears of it at once. */
  artifactChanged(change: ArtifactChange): void {
    this.emit({ type: "artifact_changed", ...change });
  }

  // ---------- deletion ----------

  /** An attachment was deleted: what the conversation kept of it (its PDF's text) goes too. */
  forgetAttachment(artifactId: string): void {
    if (hasConversationTables(this.ctx.storage.sql)) pdfTextCache(this.store).forget(artifactId);
  }

  /** Removes everything this object holds; called when its conversation is deleted. */
  async wipe(): Promise<void> {
    this.cancelTurn();
    await this.endMcpSessions();
    for (const s of this.#sse) s.close(DELETED_COMMENT);
    this.#sse.clear();
    for (const connection of this.getConnections()) {
      try {
        connection.close(CLOSE_CONVERSATION_GONE, "conversation deleted");
      } catch {
        // already closed
      }
    }
    this.#store = undefined;
    this.#audit = undefined;
    this.#authors = undefined;
    // `destroy()` ends by aborting the object, which the runtime reports as an uncaught error
    // once per open socket or request. Storage is empty and the D1 row is gone, so nothing can
    // reach this instance again: it is simply left to be evicted.
    await withoutAbort(this.ctx, () => this.destroy());
  }

  /** Tells each MCP server the conversation's session is over (DELETE), live or stored. */
  private async endMcpSessions(): Promise<void> {
    if (!hasConversationTables(this.ctx.storage.sql)) return;
    const { endAllSessions } = await import("./tool-runner");
    const userId = await this.loadConversation().then(
      (c) => c.userId,
      () => null,
    );
    // A courtesy to the servers: it never stands in the way of the deletion itself.
    await endAllSessions({ env: this.env, store: this.store, pool: this.#mcp, userId }).catch(
      (err: unknown) => console.warn("could not end MCP sessions", err),
    );
  }
}
