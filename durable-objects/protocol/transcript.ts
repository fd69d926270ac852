// Folds the event log into the transcript a person sees. The web client and the tests use the
// same fold, so "what a client shows" is one definition.
import { type MessagePart, type MessageStatus, withArtifactsNow } from "./messages";
import type { ElicitationAction, ElicitationContent, ElicitationSchema } from "./elicitation";
import type { StepTimings } from "./timings";
import type { UsageTotals } from "./usage";
import type { ErrorInfo, ServerEvent } from "./wire";
import { TranscriptDraft } from "./transcript-draft";

/** What a notice offers the user to do about it (a Connect button for a server to sign in to). */
export type NoticeAction = NonNullable<Extract<ServerEvent, { type: "notice" }>["action"]>;

export interface CallProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** A tool call that asked for the user's approval, and what was decided. */
export interface ApprovalView {
  approvalId: string;
  callId: string;
  step: number;
  server: string;
  tool: string;
  arguments: unknown;
  expiresAt: number;
  decided?: {
    decision: "approve" | "deny";
    note?: string;
    via: "websocket" | "rest" | "expiry" | "cancel";
    userId?: string;
    at: number;
  };
}

/** A question an MCP server asked during a tool call, and how it was answered. */
export interface ElicitationView {
  elicitationId: string;
  callId: string;
  server: string;
  tool: string;
  mode: "form" | "url";
  message: string;
  requestedSchema?: ElicitationSchema;
  url?: string;
  expiresAt: number;
  answered?: {
    action: ElicitationAction;
    content?: ElicitationContent;
    via: "websocket" | "rest" | "timeout" | "cancel" | "restart" | "server";
    /** Who answered (a person's answer), so a shared conversation can name them. */
    userId?: string;
    at: number;
  };
}

/** What happened while an answer was made: the thinking timeline a person can inspect. */
export interface Activity {
  /** The step running (or last run) and the turn's cap. */
  step: number;
  maxSteps: number;
  /** The step each tool call was made in. */
  callSteps: Record<string, number>;
  progress: Record<string, CallProgress>;
  /** MCP log lines and notices, oldest first (the newest MAX_LOG_LINES are kept). */
  log: { seq: number; source: string; level: string; text: string; action?: NoticeAction }[];
  /** Approvals asked during the answer, by approval id, in the order they were asked. */
  approvals: Record<string, ApprovalView>;
  error?: ErrorInfo;
  /** Questions MCP servers asked during the answer, by elicitation id, in the order asked. */
  elicitations?: Record<string, ElicitationView>;
  /** Tokens and cost of the answer's model calls so far (the live meter). */
  usage?: UsageTotals;
  /** When each tool call started and ended (server clock, ms), for the timeline's times. */
  callTimes?: Record<string, { startedAt: number; endedAt?: number }>;
  /** Where each finished step's time went, in the order the steps ended. */
  stepTimings?: StepTimings[];
  /** With a route: the model that served each model call, and those that failed first. */
  stepModels?: StepModel[];
}

export type StepModel = Omit<
  Extract<ServerEvent, { type: "step_model" }>,
  "type" | "turnId" | "at"
>;

export interface TranscriptMessage {
  id: string;
  /** Place in the conversation (the message's seq); messages are kept sorted by it. */
  order: number;
  role: "user" | "assistant";
  content: MessagePart[];
  status: MessageStatus | "streaming";
  /** Assistant messages only. */
  activity?: Activity;
  /** User messages: who wrote it (a shared conversation has several writers). */
  author?: { id: string; name: string };
}

export interface Transcript {
  lastSeq: number;
  messages: TranscriptMessage[];
  busy: boolean;
  /** The answer being made now, which progress, log lines and notices belong to. */
  activeMessageId: string | null;
  /** Which answer a turn and a tool call belong to (events that name only those), while the
   * turn runs: forgotten at its end, when no event can name them any more. */
  turnMessages: Record<string, string>;
  callMessages: Record<string, string>;
  /** Notices outside any answer (for example before the first turn). */
  notices: { seq: number; level: string; text: string; action?: NoticeAction }[];
  /** The title the model gave the conversation, once it has (the list's title until then). */
  title?: string;
  /** The rolling summary of the older messages ("Earlier in this conversation"). */
  summary?: { text: string; upToSeq: number };
  /** Artifacts changed since they were made, by id: each as its latest artifact_changed left it. */
  artifacts?: Record<string, ArtifactNow>;
  /**
   * The seq of the latest `usage_recorded` (a title's or summary's call, in D1 now): the web
   * client reads the conversation's usage again when it changes.
   */
  usageRecordedSeq?: number;
}

/** An artifact as its latest change left it (the artifact pane follows these). */
export type ArtifactNow = Omit<Extract<ServerEvent, { type: "artifact_changed" }>, "type" | "at">;

export const MAX_LOG_LINES = 200;

export const emptyTranscript = (): Transcript => ({
  lastSeq: 0,
  messages: [],
  busy: false,
  activeMessageId: null,
  turnMessages: {},
  callMessages: {},
  notices: [],
});

const newActivity = (): Activity => ({
  step: 0,
  maxSteps: 0,
  callSteps: {},
  progress: {},
  log: [],
  approvals: {},
});

const logText = (data: unknown) =>
  typeof data === "string" ? data : (JSON.stringify(data) ?? String(data));

/** Applies one event; events at or below `lastSeq` are ignored, so replays are harmless. */
export function applyEvent(t: Transcript, e: ServerEvent): Transcript {
  return applyEvents(t, [e]);
}

/**
 * Applies events in order, as `applyEvent` one after the other would, but copies the
 * transcript's lists once for the whole batch (see transcript-draft.ts): a client catching up
 * on thousands of events folds them all at once.
 */
export function applyEvents(t: Transcript, events: Iterable<ServerEvent>): Transcript {
  let draft: TranscriptDraft | null = null;
  for (const e of events) {
    if (e.seq <= (draft?.t ?? t).lastSeq) continue;
    draft ??= new TranscriptDraft(t);
    draft.t.lastSeq = e.seq;
    applyTo(draft, e);
  }
  return draft?.finish() ?? t;
}

function applyTo(draft: TranscriptDraft, e: ServerEvent): void {
  const next = draft.t;
  const edit = (id: string, fn: (m: TranscriptMessage) => TranscriptMessage) => draft.edit(id, fn);
  const editActivity = (id: string | null | undefined, fn: (a: Activity) => Activity) => {
    if (id) edit(id, (m) => ({ ...m, activity: fn(m.activity ?? newActivity()) }));
  };
  const addLine = (id: string, line: Activity["log"][number]) =>
    editActivity(id, (a) => ({ ...a, log: [...a.log, line].slice(-MAX_LOG_LINES) }));
  switch (e.type) {
    case "user_message":
      if (!draft.has(e.message.id)) {
        draft.insert({
          id: e.message.id,
          order: e.message.seq,
          role: "user",
          content: e.message.content,
          status: "complete",
          ...(e.message.author && { author: e.message.author }),
        });
      }
      break;
    case "turn_started":
      next.busy = true;
      next.activeMessageId = e.messageId;
      draft.setTurnMessage(e.turnId, e.messageId);
      if (!draft.has(e.messageId)) {
        draft.insert({
          id: e.messageId,
          order: e.order,
          role: "assistant",
          content: [],
          status: "streaming",
          activity: newActivity(),
        });
      }
      break;
    case "step_started":
      editActivity(next.turnMessages[e.turnId], (a) => ({
        ...a,
        step: e.step,
        maxSteps: e.maxSteps,
      }));
      break;
    case "tool_progress":
      editActivity(next.callMessages[e.callId], (a) => ({
        ...a,
        progress: {
          ...a.progress,
          [e.callId]: {
            progress: e.progress,
            ...(e.total !== undefined && { total: e.total }),
            ...(e.message !== undefined && { message: e.message }),
          },
        },
      }));
      break;
    case "tool_log":
    case "notice": {
      const line =
        e.type === "tool_log"
          ? { seq: e.seq, source: e.server, level: e.level, text: logText(e.data) }
          : {
              seq: e.seq,
              source: "notice",
              level: e.level,
              text: e.message,
              ...(e.action && { action: e.action }),
            };
      if (next.activeMessageId) addLine(next.activeMessageId, line);
      else if (e.type === "notice")
        draft.addNotice({
          seq: e.seq,
          level: e.level,
          text: e.message,
          ...(e.action && { action: e.action }),
        });
      break;
    }
    case "text_delta":
    case "reasoning_delta": {
      const kind = e.type === "text_delta" ? "text" : "reasoning";
      edit(e.messageId, (m) => ({ ...m, content: appendText(m.content, kind, e.delta) }));
      break;
    }
    case "tool_call":
      draft.setCallMessage(e.callId, e.messageId);
      edit(e.messageId, (m) => ({
        ...m,
        activity: {
          ...(m.activity ?? newActivity()),
          callSteps: { ...m.activity?.callSteps, [e.callId]: e.step },
          callTimes: { ...m.activity?.callTimes, [e.callId]: { startedAt: e.at } },
        },
        content: [
          ...m.content,
          {
            type: "tool_call",
            callId: e.callId,
            server: e.server,
            tool: e.tool,
            arguments: e.arguments,
            status: "started",
          },
        ],
      }));
      break;
    case "tool_result":
      edit(e.messageId, (m) => {
        const started = m.activity?.callTimes?.[e.callId];
        return {
          ...m,
          ...(m.activity &&
            started && {
              activity: {
                ...m.activity,
                callTimes: { ...m.activity.callTimes, [e.callId]: { ...started, endedAt: e.at } },
              },
            }),
          content: m.content.map((p) =>
            p.type === "tool_call" && p.callId === e.callId
              ? { ...p, status: e.isError ? "failed" : "done", summary: e.summary }
              : p,
          ),
        };
      });
      break;
    case "artifact_created":
      edit(e.messageId, (m) => ({
        ...m,
        content: [
          ...m.content,
          {
            type: "artifact",
            artifactId: e.artifact.id,
            artifactType: e.artifact.type,
            title: e.artifact.title,
          },
        ],
      }));
      break;
    case "message_completed":
      edit(e.messageId, (m) => ({
        ...m,
        content: artifactsNow(e.content, next.artifacts),
        status: e.status,
      }));
      break;
    case "approval_requested":
      editActivity(e.messageId, (a) => ({
        ...a,
        approvals: {
          ...a.approvals,
          [e.approvalId]: {
            approvalId: e.approvalId,
            callId: e.callId,
            step: e.step,
            server: e.server,
            tool: e.tool,
            arguments: e.arguments,
            expiresAt: e.expiresAt,
          },
        },
      }));
      break;
    case "approval_decided":
      editActivity(e.messageId, (a) => {
        const asked = a.approvals?.[e.approvalId];
        if (!asked) return a;
        const decided = {
          decision: e.decision,
          via: e.by.via,
          at: e.at,
          ...(e.note !== undefined && { note: e.note }),
          ...(e.by.userId !== undefined && { userId: e.by.userId }),
        };
        return { ...a, approvals: { ...a.approvals, [e.approvalId]: { ...asked, decided } } };
      });
      break;
    case "elicitation_requested":
      editActivity(e.messageId, (a) => ({
        ...a,
        elicitations: {
          ...a.elicitations,
          [e.elicitationId]: {
            elicitationId: e.elicitationId,
            callId: e.callId,
            server: e.server,
            tool: e.tool,
            mode: e.mode,
            message: e.message,
            expiresAt: e.expiresAt,
            ...(e.requestedSchema && { requestedSchema: e.requestedSchema }),
            ...(e.url !== undefined && { url: e.url }),
          },
        },
      }));
      break;
    case "elicitation_answered":
      editActivity(e.messageId, (a) => {
        const asked = a.elicitations?.[e.elicitationId];
        if (!asked) return a;
        const answered = {
          action: e.action,
          via: e.by.via,
          at: e.at,
          ...(e.content && { content: e.content }),
          ...(e.by.userId !== undefined && { userId: e.by.userId }),
        };
        return {
          ...a,
          elicitations: { ...a.elicitations, [e.elicitationId]: { ...asked, answered } },
        };
      });
      break;
    case "step_restarted":
      edit(e.messageId, (m) => ({
        ...m,
        content: artifactsNow(e.content, next.artifacts),
        status: "streaming",
      }));
      break;
    case "artifact_changed": {
      const { type: _type, at: _at, ...now } = e;
      draft.setArtifact(now);
      // Every answer that shows it (a branch's copied history too) reads it as it is now.
      draft.editAll((m) => {
        const content = artifactsNow(m.content, next.artifacts);
        return content === m.content ? m : { ...m, content };
      });
      break;
    }
    case "turn_failed":
    case "turn_ended":
      next.busy = false;
      if (e.type === "turn_failed")
        editActivity(next.turnMessages[e.turnId], (a) => ({ ...a, error: e.error }));
      next.activeMessageId = null;
      draft.endStreaming(e.type === "turn_failed" ? "failed" : e.status);
      draft.forgetTurn(e.turnId);
      break;
    case "usage_updated":
      editActivity(e.messageId, (a) => ({ ...a, usage: e.turn }));
      break;
    case "usage_recorded":
      next.usageRecordedSeq = e.seq;
      break;
    case "title_changed":
      next.title = e.title;
      break;
    case "summary_updated":
      next.summary = { text: e.text, upToSeq: e.upToSeq };
      break;
    case "history_copied":
      if (!draft.has(e.message.id)) {
        draft.insert({
          id: e.message.id,
          order: e.message.seq,
          role: e.message.role,
          content: e.message.content,
          status: e.message.status,
          ...(e.callSteps && { activity: { ...newActivity(), callSteps: e.callSteps } }),
        });
      }
      break;
    case "step_timings":
      editActivity(e.messageId, (a) => ({
        ...a,
        stepTimings: [...(a.stepTimings ?? []), e.timings],
      }));
      break;
    case "step_model": {
      const { seq, step, provider, model, failed } = e;
      editActivity(next.turnMessages[e.turnId], (a) => ({
        ...a,
        stepModels: [...(a.stepModels ?? []), { seq, step, provider, model, failed }],
      }));
      break;
    }
    default:
      break;
  }
}

function appendText(
  parts: MessagePart[],
  kind: "text" | "reasoning",
  delta: string,
): MessagePart[] {
  const last = parts[parts.length - 1];
  if (last && last.type === kind) {
    return [...parts.slice(0, -1), { type: kind, text: last.text + delta }];
  }
  return [...parts, { type: kind, text: delta }];
}

/** `parts` with each artifact's (and attached file's) title now, and deleted ones marked. */
function artifactsNow(parts: MessagePart[], artifacts: Transcript["artifacts"]): MessagePart[] {
  if (!artifacts) return parts;
  return withArtifactsNow(parts, (id) => {
    const now = artifacts[id];
    return now && { title: now.title, deleted: now.change === "deleted" };
  });
}
