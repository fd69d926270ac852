// Converts stored messages into the provider-neutral history the model sees: text, and the tool
// calls of earlier turns with their results (long results shortened, images left out), so a
// follow-up question can build on what a tool found.
import { z } from "zod";
import { type ChatMessage, type MessagePart } from "../protocol/messages";
import type { NeutralMessage, NeutralPart } from "../providers/types";
import { buildToolNameMap } from "../providers/tool-names";

type ToolCallPart = Extract<MessagePart, { type: "tool_call" }>;
type AttachmentPart = Extract<MessagePart, { type: "attachment" }>;

const namedOnly = (p: AttachmentPart): NeutralPart[] => [
  { type: "text", text: `[Attachment: ${p.name} (${p.contentType}), artifact ${p.artifactId}]` },
];
type ToolResultContent = Extract<NeutralPart, { type: "tool_result" }>["content"];

/** What the tool-call record holds for a call (see loop-storage.ts). */
export interface StoredResult {
  forModel: ToolResultContent;
  summary: string;
  isError: boolean;
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
  const names = buildToolNameMap(
    messages.flatMap((m) =>
      m.content.flatMap((p) =>
        p.type === "tool_call" ? [{ server: p.server, tool: p.tool }] : [],
      ),
    ),
  );
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
    out.push(...assistantMessages(m.content, resultOf, (p) => names.toSafe(p.server, p.tool)));
  }
  return out;
}

/**
 * One stored answer becomes assistant messages with their tool calls, each followed by the tool
 * message holding the results, in the order the user saw them.
 */
function assistantMessages(
  parts: readonly MessagePart[],
  resultOf: (callId: string) => StoredResult | undefined,
  safeName: (p: ToolCallPart) => string,
): NeutralMessage[] {
  const out: NeutralMessage[] = [];
  let text = "";
  let calls: ToolCallPart[] = [];
  const flush = () => {
    if (calls.length === 0) return;
    out.push({
      role: "assistant",
      content: [
        ...(text ? [{ type: "text" as const, text }] : []),
        ...calls.map((c) => ({
          type: "tool_call" as const,
          id: c.callId,
          name: safeName(c),
          arguments: c.arguments ?? {},
        })),
      ],
    });
    out.push({
      role: "tool",
      content: calls.map((c) => ({
        type: "tool_result" as const,
        callId: c.callId,
        name: safeName(c),
        ...(resultOf(c.callId)?.isError && { isError: true }),
        content: compactResult(c, resultOf(c.callId)),
      })),
    });
    text = "";
    calls = [];
  };
  const artifacts: string[] = [];
  for (const p of parts) {
    if (p.type === "text") {
      // Text after a step's calls belongs to a later step.
      flush();
      text += p.text;
    } else if (p.type === "tool_call") calls.push(p);
    else if (p.type === "artifact")
      artifacts.push(`- ${p.title} (${p.artifactType}, artifact ${p.artifactId})`);
  }
  flush();
  // The artifacts stay with the user; the model is told what they are called and where they are.
  if (artifacts.length > 0)
    text += `${text ? "\n\n" : ""}[Artifacts of this answer]\n${artifacts.join("\n")}`;
  if (text) out.push({ role: "assistant", content: [{ type: "text", text }] });
  return out;
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
  const text = stored.forModel
    .map((c) => (c.type === "text" ? c.text : `[${c.mediaType} image, shown to the user]`))
    .join("\n");
  if (text.length <= COMPACT_RESULT_CHARS) return [{ type: "text", text }];
  return [
    {
      type: "text",
      text:
        `${text.slice(0, COMPACT_HEAD_CHARS)}\n… [shortened: ${text.length} characters in all. ` +
        `Summary: ${stored.summary}. The full result is kept with this call (${call.callId}) ` +
        "and its artifacts; call the tool again if you need the rest.]",
    },
  ];
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
});

/** A tool-call record's result, checked (records outlive deploys that may change their shape). */
export function parseStoredResult(result: unknown): StoredResult | undefined {
  const parsed = StoredResultSchema.safeParse(result);
  return parsed.success ? parsed.data : undefined;
}
