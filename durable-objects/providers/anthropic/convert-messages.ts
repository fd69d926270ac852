// Neutral history → Anthropic Messages. Anthropic's rules: turns alternate user/assistant and the
// first is the user's; tool results are `tool_result` blocks at the start of the next user turn;
// ids match ^[a-zA-Z0-9_-]+$; no empty text blocks; images only as jpeg, png, gif or webp, at most
// 8000 pixels a side (a tall full-page screenshot is named instead); a
// thinking block goes back as it came (signed or redacted), and only to the model that wrote it.
import type Anthropic from "@anthropic-ai/sdk";
import { imageSize } from "../image-size";
import { pairToolResults } from "../pair-tool-results";
import type { NeutralMessage, NeutralPart } from "../types";

type Block = Anthropic.ContentBlockParam;
export interface Turn {
  role: "user" | "assistant";
  content: Block[];
}
type ImageType = Anthropic.Base64ImageSource["media_type"];

const IMAGE_TYPES: ReadonlySet<string> = new Set([
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/webp",
]);

/** Ids from another provider may hold characters Anthropic refuses; map them the same way twice. */
export const anthropicId = (id: string) => id.replace(/[^a-zA-Z0-9_-]/g, "_") || "_";

/** The longest side Anthropic takes: a larger image fails the whole request. */
const MAX_SIDE = 8000;

function image(
  mediaType: string,
  data: string,
): Anthropic.ImageBlockParam | Anthropic.TextBlockParam {
  if (!IMAGE_TYPES.has(mediaType))
    return { type: "text", text: `[an image of type ${mediaType} was left out: not supported]` };
  const size = imageSize(data);
  if (size && Math.max(size.width, size.height) > MAX_SIDE)
    return {
      type: "text",
      text: `[an image of ${size.width}×${size.height} pixels was left out: Claude takes at most ${MAX_SIDE} pixels a side]`,
    };
  return { type: "image", source: { type: "base64", media_type: mediaType as ImageType, data } };
}

function toBlock(p: NeutralPart, role: "user" | "assistant", model: string | null): Block | null {
  switch (p.type) {
    case "text":
      return p.text.trim() ? { type: "text", text: p.text } : null;
    case "image":
      return image(p.mediaType, p.data);
    case "reasoning":
      return null; // Unsigned: Claude takes back only the blocks it signed.
    case "signed_thinking":
      if (role !== "assistant" || p.model !== model) return null;
      return "redacted" in p
        ? { type: "redacted_thinking", data: p.redacted }
        : { type: "thinking", thinking: p.thinking, signature: p.signature };
    case "encrypted_reasoning":
      return null; // OpenAI's; Claude cannot read it.
    case "tool_call":
      return {
        type: "tool_use",
        id: anthropicId(p.id),
        name: p.name,
        input: p.arguments && typeof p.arguments === "object" ? p.arguments : {},
      };
    case "tool_result":
      return {
        type: "tool_result",
        tool_use_id: anthropicId(p.callId),
        ...(p.isError && { is_error: true }),
        content: p.content.flatMap((c) =>
          c.type === "image"
            ? [image(c.mediaType, c.data)]
            : c.text.trim()
              ? [{ type: "text" as const, text: c.text }]
              : [],
        ),
      };
    case "document":
      return {
        type: "document",
        source: { type: "base64", media_type: p.mediaType, data: p.data },
        title: p.name,
      };
  }
}

const order = (b: Block) => (b.type === "tool_result" ? 0 : 1);

/** `model`: the model asked, the only one sent the thinking blocks it wrote (null: none are sent). */
export function toAnthropicMessages(
  messages: readonly NeutralMessage[],
  model: string | null,
): Turn[] {
  const out: Turn[] = [];
  for (const m of pairToolResults(messages)) {
    const role = m.role === "assistant" ? "assistant" : "user";
    const blocks = m.content.flatMap((p) => toBlock(p, role, model) ?? []);
    if (blocks.length === 0) continue;
    const last = out.at(-1);
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  }
  for (const m of out) if (m.role === "user") m.content.sort((a, b) => order(a) - order(b));
  if (out[0]?.role === "assistant")
    out.unshift({ role: "user", content: [{ type: "text", text: "(conversation continues)" }] });
  return out;
}
