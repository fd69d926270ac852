// The WebSocket (and SSE) contract between clients and a Conversation. Shared by web/ and the
// workers; imports nothing of ours but its sibling schemas. Every frame is parsed with these.
import { z } from "zod";
import { AttachmentIds } from "./attachments";
import { ElicitationAction, ElicitationContent, ElicitationSchema } from "./elicitation";
import { BranchRequest } from "./branches";
import { ReasoningEffort } from "./conversation-settings";
import { ChatMessage, MessagePart, MessageStatus } from "./messages";
import { ConversationRole } from "./roles";
import { StepTimings } from "./timings";
import { UsageTotals } from "./usage";

/** Largest client frame accepted, in bytes (UTF-8). */
export const MAX_CLIENT_FRAME_BYTES = 64 * 1024;
/** Largest user message text, in characters. */
export const MAX_MESSAGE_CHARS = 32_000;

export const SendOptions = z
  .object({
    maxSteps: z.number().int().min(1).max(20).optional(),
    provider: z.string().min(1).max(40).optional(),
    model: z.string().min(1).max(200).optional(),
    // This message's reasoning effort, over the conversation's setting.
    reasoningEffort: ReasoningEffort.optional(),
  })
  .strict();
export type SendOptions = z.infer<typeof SendOptions>;

export const SendMessage = z.object({
  type: z.literal("send"),
  clientMessageId: z.string().min(1).max(100),
  text: z
    .string()
    .max(MAX_MESSAGE_CHARS)
    .refine((t) => t.trim() !== "", "write something besides spaces and line breaks"),
  options: SendOptions.optional(),
  // Artifact ids of attachments of this conversation (POST /api/conversations/:id/attachments).
  attachments: AttachmentIds.optional(),
});

// ---- client → server ----
export const ClientFrame = z.discriminatedUnion("type", [
  // Ask for every event after `lastSeq` (0 for everything). Sent on each (re)connect. `compact`
  // leaves out the text and reasoning deltas of finished answers: their message_completed
  // carries the whole content, so the folded transcript is the same from far fewer events.
  z.object({
    type: z.literal("resume"),
    lastSeq: z.number().int().min(0),
    compact: z.boolean().optional(),
    // Ask for `presence` frames: who else has the conversation open, who is typing.
    presence: z.boolean().optional(),
    // Ask for the replayed events in `replay` frames (up to 1,000 events each) instead of one
    // frame per event: sending and receiving one socket message per event is most of a
    // catch-up's time.
    batch: z.boolean().optional(),
  }),
  SendMessage,
  z.object({ type: z.literal("cancel") }),
  z.object({ type: z.literal("ping") }),
  // The answer to an approval_requested event (the REST route takes the same fields).
  z.object({ type: z.literal("approval"), approvalId: z.string().min(1).max(100) }).extend({
    decision: z.enum(["approve", "deny"]),
    note: z.string().max(2000).optional(),
    remember: z.boolean().optional(),
  }),
  // The answer to an elicitation_requested event (the REST route takes `action` and `content`).
  z.object({
    type: z.literal("elicitation"),
    elicitationId: z.string().min(1).max(100),
    action: ElicitationAction,
    content: ElicitationContent.optional(),
  }),
  // Branch, edit or regenerate (branches.ts): the new conversation is named in a `branched` frame.
  BranchRequest.extend({ type: z.literal("branch") }),
  // The sender is typing (true), or stopped (false); others see it in their presence frames.
  z.object({ type: z.literal("typing"), typing: z.boolean() }),
]);
export type ClientFrame = z.infer<typeof ClientFrame>;
export type ApprovalFrame = Extract<ClientFrame, { type: "approval" }>;
/** The body of `POST /api/conversations/:id/approvals/:approvalId`. */
export const ApprovalAnswer = z
  .object({
    decision: z.enum(["approve", "deny"]),
    note: z.string().max(2000).optional(),
    remember: z.boolean().optional(),
  })
  .strict();
export type ApprovalAnswer = z.infer<typeof ApprovalAnswer>;
export type SendMessage = z.infer<typeof SendMessage>;

const ErrorInfo = z.object({
  code: z.string(),
  message: z.string(),
  // How long the provider asked to wait before trying again (its Retry-After), when it said.
  retryAfterSeconds: z.number().int().positive().optional(),
});
export type ErrorInfo = z.infer<typeof ErrorInfo>;

/** What changed of an artifact, as the API worker tells its conversation (artifact_changed). */
export const ArtifactChange = z.object({
  artifactId: z.string(),
  change: z.enum(["content", "title", "pinned", "deleted"]),
  title: z.string(),
  pinned: z.boolean(),
  updatedAt: z.number(),
});
export type ArtifactChange = z.infer<typeof ArtifactChange>;

// ---- server → client: sequenced events, kept in the conversation's event log ----
const seqd = { seq: z.number().int().positive(), at: z.number() };

export const ServerEvent = z.discriminatedUnion("type", [
  z.object({ ...seqd, type: z.literal("user_message"), message: ChatMessage }),
  z.object({
    ...seqd,
    type: z.literal("turn_started"),
    turnId: z.string(),
    messageId: z.string(),
    // The answer's place in the conversation (message seq): a queued question may be shown first.
    order: z.number().int(),
    userMessageId: z.string(),
    provider: z.string(),
    model: z.string(),
  }),
  z.object({
    ...seqd,
    type: z.literal("step_started"),
    turnId: z.string(),
    step: z.number().int(),
    maxSteps: z.number().int(),
  }),
  z.object({ ...seqd, type: z.literal("text_delta"), messageId: z.string(), delta: z.string() }),
  z.object({
    ...seqd,
    type: z.literal("reasoning_delta"),
    messageId: z.string(),
    delta: z.string(),
  }),
  z.object({
    ...seqd,
    type: z.literal("tool_call"),
    messageId: z.string(),
    step: z.number().int(),
    callId: z.string(),
    server: z.string(),
    tool: z.string(),
    arguments: z.unknown(),
  }),
  z.object({
    ...seqd,
    type: z.literal("tool_progress"),
    callId: z.string(),
    progress: z.number(),
    total: z.number().optional(),
    message: z.string().optional(),
  }),
  z.object({
    ...seqd,
    type: z.literal("tool_log"),
    server: z.string(),
    level: z.string(),
    data: z.unknown(),
  }),
  z.object({
    ...seqd,
    type: z.literal("tool_result"),
    messageId: z.string(),
    callId: z.string(),
    isError: z.boolean(),
    summary: z.string(),
  }),
  z.object({
    ...seqd,
    type: z.literal("artifact_created"),
    messageId: z.string(),
    artifact: z.object({
      id: z.string(),
      type: z.string(),
      title: z.string(),
      language: z.string().nullable().optional(),
    }),
  }),
  z.object({
    ...seqd,
    type: z.literal("message_completed"),
    messageId: z.string(),
    content: z.array(MessagePart),
    status: MessageStatus,
  }),
  z.object({ ...seqd, type: z.literal("turn_failed"), turnId: z.string(), error: ErrorInfo }),
  z.object({
    ...seqd,
    type: z.literal("turn_ended"),
    turnId: z.string(),
    status: MessageStatus,
    // A complete answer the provider ended short: at its max tokens, or by its filter or the
    // model's refusal. The answer's last line says which, in words.
    cutShort: z.enum(["length", "content_filter"]).optional(),
  }),
  z.object({
    ...seqd,
    type: z.literal("notice"),
    level: z.enum(["info", "warning", "error"]),
    message: z.string(),
    // What the user can do about it: a server the turn skipped until they sign in (Connect).
    action: z
      .object({ kind: z.literal("mcp_sign_in"), serverId: z.string(), serverName: z.string() })
      .optional(),
  }),
  // A turn resumed after a restart runs the step that was cut off again: the answer goes back to
  // `content` (what it showed before that step began) and the step streams anew, so clients
  // replace the step's partial text instead of appending to it.
  z.object({
    ...seqd,
    type: z.literal("step_restarted"),
    turnId: z.string(),
    messageId: z.string(),
    step: z.number().int(),
    content: z.array(MessagePart),
  }),
  // A tool call waits for the user: the turn is parked at it (for as long as `expiresAt`) and
  // resumes from it once approved or denied, on any device, by WebSocket or REST.
  z.object({
    ...seqd,
    type: z.literal("approval_requested"),
    turnId: z.string(),
    messageId: z.string(),
    approvalId: z.string(),
    callId: z.string(),
    step: z.number().int(),
    server: z.string(),
    tool: z.string(),
    arguments: z.unknown(),
    expiresAt: z.number(),
  }),
  // Who decided what, and when (`at`); an approval nobody answered expires as denied.
  z.object({
    ...seqd,
    type: z.literal("approval_decided"),
    turnId: z.string(),
    messageId: z.string(),
    approvalId: z.string(),
    callId: z.string(),
    decision: z.enum(["approve", "deny"]),
    note: z.string().optional(),
    by: z.object({
      via: z.enum(["websocket", "rest", "expiry", "cancel"]),
      userId: z.string().optional(),
    }),
    remembered: z.boolean().optional(),
  }),
  // An MCP server asks the user something while one of its tool calls runs (the call waits, up
  // to `expiresAt`): a form built from `requestedSchema`, or a web page to open (`url`).
  z.object({
    ...seqd,
    type: z.literal("elicitation_requested"),
    turnId: z.string(),
    messageId: z.string(),
    elicitationId: z.string(),
    callId: z.string(),
    server: z.string(),
    tool: z.string(),
    mode: z.enum(["form", "url"]),
    message: z.string(),
    requestedSchema: ElicitationSchema.optional(),
    url: z.string().optional(),
    expiresAt: z.number(),
  }),
  // How it was answered, by whom: a person (websocket, rest), the clock (timeout), the turn's
  // cancellation, a restart that lost the call, or the server saying the URL flow completed.
  z.object({
    ...seqd,
    type: z.literal("elicitation_answered"),
    turnId: z.string(),
    messageId: z.string(),
    elicitationId: z.string(),
    callId: z.string(),
    action: ElicitationAction,
    content: ElicitationContent.optional(),
    by: z.object({
      via: z.enum(["websocket", "rest", "timeout", "cancel", "restart", "server"]),
      userId: z.string().optional(),
    }),
  }),
  // A model call of the turn reported its usage: that call's figures and the turn's so far.
  z.object({
    ...seqd,
    type: z.literal("usage_updated"),
    turnId: z.string(),
    messageId: z.string(),
    step: z.number().int(),
    model: z.string(),
    call: UsageTotals,
    turn: UsageTotals,
    // The call was cut short (cancelled, cut by a guard, its connection lost) before its
    // provider's final count: what the provider did not report is estimated.
    estimated: z.literal(true).optional(),
    // The call completed without a usage report (a compatible server that sends none): counted
    // with zero tokens, not a guess; the totals' `unreportedCalls` says how many.
    unreported: z.literal(true).optional(),
  }),
  // The conversation was named by the model after its first answer (never over a user's title).
  z.object({ ...seqd, type: z.literal("title_changed"), title: z.string() }),
  // The rolling summary of the older messages, sent to the model instead of them (summary.ts).
  z.object({
    ...seqd,
    type: z.literal("summary_updated"),
    text: z.string(),
    upToSeq: z.number().int(),
  }),
  // In a conversation with a route: the model that served a step's model call, and the models
  // that were tried first and failed (empty unless the step fell back).
  z.object({
    ...seqd,
    type: z.literal("step_model"),
    turnId: z.string(),
    step: z.number().int(),
    provider: z.string(),
    model: z.string(),
    failed: z.array(z.object({ provider: z.string(), model: z.string(), reason: z.string() })),
  }),
  // A branch starts with the messages of its origin before the branch point, one event each;
  // `callSteps` names the step of each of an answer's tool calls (a branch can be made at one).
  z.object({
    ...seqd,
    type: z.literal("history_copied"),
    message: ChatMessage,
    callSteps: z.record(z.string(), z.number().int()).optional(),
  }),
  // A step ended: where its time went (model, tools per server, retries, checkpoints; timings.ts).
  z.object({
    ...seqd,
    type: z.literal("step_timings"),
    turnId: z.string(),
    messageId: z.string(),
    timings: StepTimings,
  }),
  // An artifact was edited, renamed, pinned or unpinned, or deleted (REST, by the owner): open
  // panes follow and answers' buttons read its title now. `title`, `pinned` and `updatedAt` are
  // the artifact's after the change (as it was, for `deleted`); its content is not sent: fetch it.
  z.object({
    ...seqd,
    type: z.literal("artifact_changed"),
    ...ArtifactChange.shape,
  }),
  // A model call of no answer (the title, the rolling summary) was counted: its usage rows have
  // been sent to D1, so `GET …/usage` has them (unless D1 refused; they are retried). Its figures
  // are the conversation's, never a turn's.
  z.object({
    ...seqd,
    type: z.literal("usage_recorded"),
    purpose: z.enum(["title", "summary"]),
    provider: z.string(),
    model: z.string(),
    call: UsageTotals,
  }),
]);
export type ServerEvent = z.infer<typeof ServerEvent>;
export type ServerEventType = ServerEvent["type"];
/** An event before the log gives it a sequence number and time. */
export type NewServerEvent = ServerEvent extends infer E
  ? E extends ServerEvent
    ? Omit<E, "seq" | "at">
    : never
  : never;

/** One person in a `presence` frame. */
export const PresencePerson = z.object({
  userId: z.string(),
  name: z.string(),
  role: ConversationRole,
  typing: z.boolean(),
});
export type PresencePerson = z.infer<typeof PresencePerson>;

// ---- server → client: frames outside the log (not replayed) ----
export const ServerControl = z.discriminatedUnion("type", [
  // Sent after a resume has been served: the client is caught up to `seq`.
  z.object({ type: z.literal("synced"), seq: z.number().int().min(0), busy: z.boolean() }),
  // A frame the client sent was refused; the connection stays open.
  z.object({
    type: z.literal("frame_error"),
    error: ErrorInfo,
    /** The refused send's: its text goes back in the sender's message box, not resent. */
    clientMessageId: z.string().optional(),
  }),
  // A send was accepted (or recognised as a duplicate) and stored under `messageId`.
  z.object({
    type: z.literal("ack"),
    clientMessageId: z.string(),
    messageId: z.string(),
    seq: z.number().int(),
    duplicate: z.boolean(),
    queued: z.boolean(),
  }),
  z.object({ type: z.literal("pong") }),
  // A `branch` frame was served: the new conversation (open it to follow its first answer).
  z.object({ type: z.literal("branched"), conversationId: z.string() }),
  // Who has the conversation open now (one entry per person, however many tabs), sent to the
  // sockets that asked for it on resume, whenever someone arrives, leaves, types or changes role.
  z.object({
    type: z.literal("presence"),
    people: z.array(PresencePerson),
    you: z.object({ userId: z.string(), role: ConversationRole }),
  }),
  // The events of a `batch` resume, oldest first, as they would have come one frame each.
  z.object({ type: z.literal("replay"), events: z.array(ServerEvent) }),
]);
export type ServerControl = z.infer<typeof ServerControl>;

export const ServerFrame = z.union([ServerEvent, ServerControl]);
export type ServerFrame = z.infer<typeof ServerFrame>;

export function isServerEvent(frame: ServerFrame): frame is ServerEvent {
  return "seq" in frame && frame.type !== "synced" && frame.type !== "ack";
}
