// Converts stored messages into the provider-neutral history the model sees: text, and the tool
// calls of earlier turns with their results (long results shortened, images left out), so a
// follow-up question can build on what a tool found.
import { z } from "zod";
import { withoutBidiControls } from "../protocol/display-text";
import { type ChatMessage, type MessagePart } from "../protocol/messages";
import type { NeutralMessage, NeutralPart } from "../providers/types";
import { buildToolNameMap } from "../providers/tool-names";

type ToolCallPart = Extract<MessagePart, { type: "tool_call" }>;
type AttachmentPart = Extract<MessagePart, { type: "attachment" }>;

const namedOnly = (p: AttachmentPart): NeutralPart[] => [
  {
    type: "text",
    text: `[Attachment: ${p.name} (${p.contentType}), artifact ${p.artifactId}${p.deleted ? DELETED : ""}]`,
  },
];
/** What the model is told of an artifact (or file) the user deleted since: it cannot be fetched. */
const DELETED = "; the user has deleted it since";
type ToolResultContent = Extract<NeutralPart, { type: "tool_result" }>["content"];

/** What the tool-call record holds for a call (see loop-storage.ts). */
export interface StoredResult {
  forModel: ToolResultContent;
  summary: string;
  isError: boolean;
  /** The artifacts the result was saved as, which hold it whole. */
  artifacts?: Array<{ id: string; title: string }>;
}

/** An earlier result longer than this is sent shortened. */
export const COMPACT_RESULT_CHARS = 2_000;
/** How much of a shortened result is kept verbatim. */
const COMPACT_HEAD_CHARS = 600;

export function toNeutralHistory(
  messages: readonly ChatMessage[],
  resultOf: (callId: string) => StoredResult | undefined = () => undefined,
  /** The parts an attachment becomes for this model (attachment-history.ts). */
  attachmentParts: (part: AttachmentPart) => NeutralPart[] = namedOnly,
): NeutralMessage[] {
  const names = buildToolNameMap(calledTools(messages));
  const safeName = (p: ToolCallPart) => names.toSafe(p.server, p.tool);
  const out: NeutralMessage[] = [];
  for (const m of messages) {
    if (m.role === "user") {
      const text = textOf(m.content);
      const files = m.content.flatMap((p) => (p.type === "attachment" ? attachmentParts(p) : []));
      if (text || files.length > 0)
        out.push({
          role: "user",
          content: [...(text ? [{ type: "text" as const, text }] : []), ...files],
        });
      continue;
    }
    const before = out.length;
    appendAssistantMessages(out, m.content, resultOf, safeName);
    // An answer that never came: said so, rather than leaving the question to run into the next
    // one as if the user had asked both at once (and the model answering the old one unasked).
    if (out.length === before && m.status !== "complete")
      out.push({ role: "assistant", content: [{ type: "text", text: NO_ANSWER[m.status] }] });
  }
  return out;
}

/** What the model is told of an answer that ended before it said anything. */
const NO_ANSWER: Record<Exclude<ChatMessage["status"], "complete">, string> = {
  failed: "[No answer: this turn failed before anything was said.]",
  cancelled: "[No answer: the user stopped this turn before anything was said.]",
  interrupted: "[No answer: this turn was interrupted before anything was said.]",
};

/** The id of every tool call in the history, in order. */
export function toolCallIdsIn(messages: readonly ChatMessage[]): string[] {
  return messages.flatMap((m) => (m.role === "user" ? [] : callIdsOf(m.content)));
}

/** The id of every tool call among an answer's parts, in order. */
export const callIdsOf = (parts: readonly MessagePart[]): string[] =>
  parts.flatMap((p) => (p.type === "tool_call" ? [p.callId] : []));

/** Each tool the history called, once (a long history calls the same few tools many times). */
function calledTools(messages: readonly ChatMessage[]): Array<{ server: string; tool: string }> {
  const seen = new Map<string, { server: string; tool: string }>();
  for (const m of messages) {
    if (m.role === "user") continue;
    for (const p of m.content)
      if (p.type === "tool_call") seen.set(`${p.server}\u0000${p.tool}`, p);
  }
  return [...seen.values()];
}

/**
 * One stored answer becomes assistant messages with their tool calls, each followed by the tool
 * message holding the results, in the order the user saw them.
 */
function appendAssistantMessages(
  out: NeutralMessage[],
  parts: readonly MessagePart[],
  resultOf: (callId: string) => StoredResult | undefined,
  safeName: (p: ToolCallPart) => string,
): void {
  let text = "";
  let calls: ToolCallPart[] = [];
  let artifacts = "";
  for (const p of parts) {
    if (p.type === "text") {
      // Text after a step's calls belongs to a later step.
      if (calls.length > 0) {
        appendStep(out, text, calls, resultOf, safeName);
        text = "";
        calls = [];
      }
      text += p.text;
    } else if (p.type === "tool_call") calls.push(p);
    else if (p.type === "artifact")
      artifacts += `\n- ${p.title} (${p.artifactType}, artifact ${p.artifactId}${p.deleted ? DELETED : ""})`;
  }
  if (calls.length > 0) {
    appendStep(out, text, calls, resultOf, safeName);
    text = "";
  }
  // The artifacts stay with the user; the model is told what they are called and where they are.
  if (artifacts) text += `${text ? "\n\n" : ""}[Artifacts of this answer]${artifacts}`;
  if (text) out.push({ role: "assistant", content: [{ type: "text", text }] });
}

/** One step: the text before its calls and the calls, then the tool message with their results. */
function appendStep(
  out: NeutralMessage[],
  text: string,
  calls: readonly ToolCallPart[],
  resultOf: (callId: string) => StoredResult | undefined,
  safeName: (p: ToolCallPart) => string,
): void {
  const content: NeutralPart[] = text ? [{ type: "text", text }] : [];
  const results: NeutralPart[] = [];
  for (const c of calls) {
    const name = safeName(c);
    // Looked up once: in the Conversation DO each lookup reads and parses a stored record.
    const stored = resultOf(c.callId);
    content.push({ type: "tool_call", id: c.callId, name, arguments: c.arguments ?? {} });
    results.push({
      type: "tool_result",
      callId: c.callId,
      name,
      ...(stored?.isError && { isError: true }),
      content: compactResult(c, stored),
    });
  }
  out.push({ role: "assistant", content }, { role: "tool", content: results });
}

/**
 * An earlier turn's result, compact: short results whole, long ones as their beginning plus the
 * summary, images as a mention (they were shown to the user as artifacts).
 */
export function compactResult(
  call: ToolCallPart,
  stored: StoredResult | undefined,
): ToolResultContent {
  if (!stored)
    return [
      {
        type: "text",
        text: call.summary
          ? `Result (summary): ${call.summary}`
          : `No result was recorded for this call (${call.status}).`,
      },
    ];
  const text = resultText(stored.forModel);
  if (text.length <= COMPACT_RESULT_CHARS) return [{ type: "text", text }];
  return [
    {
      type: "text",
      text:
        `${text.slice(0, COMPACT_HEAD_CHARS)}\n… [shortened: ${text.length} characters in all. ` +
        `Summary: ${stored.summary}. ${fullResultPointer(call, stored)}]`,
    },
  ];
}

/** Where the rest is: the artifacts that hold it, by id, or else this call. */
function fullResultPointer(call: ToolCallPart, stored: StoredResult): string {
  const artifacts = stored.artifacts ?? [];
  if (artifacts.length === 0)
    return `The full result is kept with this call (${call.callId}); call the tool again if you need the rest.`;
  const named = artifacts.map((a) => `"${a.title}" (artifact ${a.id})`).join(", ");
  return `The full result is saved as ${artifacts.length === 1 ? "the artifact" : "the artifacts"} ${named}; fetch it by its artifact id if you need the rest.`;
}

const contentText = (c: ToolResultContent[number]) =>
  c.type === "text" ? c.text : `[${c.mediaType} image, shown to the user]`;

/** Most results are one text item: that text as it is, without a copy. */
function resultText(content: ToolResultContent): string {
  const [only] = content;
  return content.length === 1 && only ? contentText(only) : content.map(contentText).join("\n");
}

function textOf(parts: readonly MessagePart[]): string {
  let text = "";
  for (const p of parts) if (p.type === "text") text += p.text;
  return text;
}

const StoredResultSchema = z.object({
  forModel: z.array(
    z.union([
      z.object({ type: z.literal("text"), text: z.string() }),
      z.object({ type: z.literal("image"), mediaType: z.string(), data: z.string() }),
    ]),
  ),
  summary: z.string(),
  isError: z.boolean(),
  // Records written before titles lost their bidi controls on the way in may still hold them.
  artifacts: z
    .array(z.object({ id: z.string(), title: z.string().transform(withoutBidiControls) }))
    .optional(),
});

/** A tool-call record's result, checked (records outlive deploys that may change their shape). */
export function parseStoredResult(result: unknown): StoredResult | undefined {
  const parsed = StoredResultSchema.safeParse(result);
  return parsed.success ? parsed.data : undefined;
}
