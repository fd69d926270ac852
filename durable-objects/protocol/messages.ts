// Message content as stored in D1 and shown by clients: an array of parts.
import { z } from "zod";
import { AttachmentKind } from "./attachments";
import { withoutBidiControls } from "./display-text";

export const TextPart = z.object({ type: z.literal("text"), text: z.string() });
export const ReasoningPart = z.object({ type: z.literal("reasoning"), text: z.string() });
export const ArtifactRefPart = z.object({
  type: z.literal("artifact"),
  artifactId: z.string(),
  artifactType: z.string(),
  // Parts stored before bidi controls were dropped on the way in still hold them.
  title: z.string().transform(withoutBidiControls),
  // Deleted since the answer made it: its button says so. Readers mark it as they read (the
  // transcript fold, the API's messages, the model's history); a branch stores it as copied.
  deleted: z.literal(true).optional(),
});
export const ToolCallPart = z.object({
  type: z.literal("tool_call"),
  callId: z.string(),
  server: z.string(),
  tool: z.string(),
  arguments: z.unknown(),
  status: z.enum(["started", "done", "failed", "interrupted"]),
  summary: z.string().optional(),
});

// A file the user attached to their message (an artifact of type `attachment`).
export const AttachmentPart = z.object({
  type: z.literal("attachment"),
  artifactId: z.string(),
  name: z.string().transform(withoutBidiControls),
  contentType: z.string(),
  size: z.number().int().min(0),
  kind: AttachmentKind,
  // Deleted since it was sent (as for an artifact): its chip says so and opens nothing.
  deleted: z.literal(true).optional(),
});
export type AttachmentPart = z.infer<typeof AttachmentPart>;

export const MessagePart = z.discriminatedUnion("type", [
  TextPart,
  ReasoningPart,
  ArtifactRefPart,
  ToolCallPart,
  AttachmentPart,
]);
export type MessagePart = z.infer<typeof MessagePart>;

export const MessageRole = z.enum(["user", "assistant"]);
export const MessageStatus = z.enum(["complete", "interrupted", "failed", "cancelled"]);
export type MessageStatus = z.infer<typeof MessageStatus>;

export const ChatMessage = z.object({
  id: z.string(),
  role: MessageRole,
  content: z.array(MessagePart),
  status: MessageStatus,
  seq: z.number().int(),
  clientMessageId: z.string().nullable().optional(),
  createdAt: z.number(),
  /** Who wrote a user message (a shared conversation has several writers). */
  author: z.object({ id: z.string(), name: z.string() }).optional(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

/**
 * A page of GET /api/conversations/:id/messages, oldest first. `nextAfter` is the `?after=` of
 * the next page, null when this page reaches the last message: a full page never looks complete.
 */
export const MessagePage = z.object({
  items: z.array(ChatMessage),
  nextAfter: z.number().int().nullable(),
});
export type MessagePage = z.infer<typeof MessagePage>;

/** The plain text of a message: its text parts joined. */
export function messageText(parts: readonly MessagePart[]): string {
  return parts
    .filter((p): p is z.infer<typeof TextPart> => p.type === "text")
    .map((p) => p.text)
    .join("");
}

/** An artifact as a reader knows it now: its title, or deleted (title: the last one known). */
export interface ArtifactState {
  title?: string;
  deleted: boolean;
}

/**
 * `parts` with each artifact and attached file as it is now: under its title now (renamed since
 * the message was written) and marked when deleted. Stored messages keep what they recorded, so
 * every reader applies this as it reads; `now` answers undefined for an artifact it knows nothing
 * of, which stays as recorded. The same array when nothing changes.
 */
export function withArtifactsNow(
  parts: MessagePart[],
  now: (artifactId: string) => ArtifactState | undefined,
): MessagePart[] {
  let changed = false;
  const next = parts.map((p): MessagePart => {
    if (p.type !== "artifact" && p.type !== "attachment") return p;
    const state = now(p.artifactId);
    if (!state) return p;
    const recorded = p.type === "artifact" ? p.title : p.name;
    const title = state.title === undefined ? recorded : withoutBidiControls(state.title);
    if (title === recorded && !!p.deleted === state.deleted) return p;
    changed = true;
    const mark = state.deleted ? { deleted: true as const } : {};
    if (p.type === "artifact") {
      const { deleted: _, ...recordedPart } = p;
      return { ...recordedPart, title, ...mark };
    }
    const { deleted: _, ...recordedPart } = p;
    return { ...recordedPart, name: title, ...mark };
  });
  return changed ? next : parts;
}
