// Folds the event log into the transcript a person sees. The web client and the tests use the
// same fold, so "what a client shows" is one definition.
import type { MessagePart, MessageStatus } from "./messages";
import type { ServerEvent } from "./wire";

export interface TranscriptMessage {
  id: string;
  /** Place in the conversation (the message's seq); messages are kept sorted by it. */
  order: number;
  role: "user" | "assistant";
  content: MessagePart[];
  status: MessageStatus | "streaming";
}

export interface Transcript {
  lastSeq: number;
  messages: TranscriptMessage[];
  busy: boolean;
}

export const emptyTranscript = (): Transcript => ({ lastSeq: 0, messages: [], busy: false });

/** Applies one event; events at or below `lastSeq` are ignored, so replays are harmless. */
export function applyEvent(t: Transcript, e: ServerEvent): Transcript {
  if (e.seq <= t.lastSeq) return t;
  const next: Transcript = { ...t, lastSeq: e.seq, messages: t.messages };
  const edit = (id: string, fn: (m: TranscriptMessage) => TranscriptMessage) => {
    next.messages = next.messages.map((m) => (m.id === id ? fn(m) : m));
  };
  switch (e.type) {
    case "user_message":
      if (!next.messages.some((m) => m.id === e.message.id)) {
        next.messages = insertInOrder(next.messages, {
          id: e.message.id,
          order: e.message.seq,
          role: "user",
          content: e.message.content,
          status: "complete",
        });
      }
      break;
    case "turn_started":
      next.busy = true;
      if (!next.messages.some((m) => m.id === e.messageId)) {
        next.messages = insertInOrder(next.messages, {
          id: e.messageId,
          order: e.order,
          role: "assistant",
          content: [],
          status: "streaming",
        });
      }
      break;
    case "text_delta":
    case "reasoning_delta": {
      const kind = e.type === "text_delta" ? "text" : "reasoning";
      edit(e.messageId, (m) => ({ ...m, content: appendText(m.content, kind, e.delta) }));
      break;
    }
    case "tool_call":
      edit(e.messageId, (m) => ({
        ...m,
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
      edit(e.messageId, (m) => ({
        ...m,
        content: m.content.map((p) =>
          p.type === "tool_call" && p.callId === e.callId
            ? { ...p, status: e.isError ? "failed" : "done", summary: e.summary }
            : p,
        ),
      }));
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
      edit(e.messageId, (m) => ({ ...m, content: e.content, status: e.status }));
      break;
    case "turn_failed":
    case "turn_ended":
      next.busy = false;
      next.messages = next.messages.map((m) =>
        m.status === "streaming"
          ? { ...m, status: e.type === "turn_failed" ? "failed" : e.status }
          : m,
      );
      break;
    default:
      break;
  }
  return next;
}

function insertInOrder(messages: TranscriptMessage[], m: TranscriptMessage): TranscriptMessage[] {
  const at = messages.findIndex((x) => x.order > m.order);
  return at < 0 ? [...messages, m] : [...messages.slice(0, at), m, ...messages.slice(at)];
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
