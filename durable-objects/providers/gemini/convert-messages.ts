// Neutral history → Gemini contents. Gemini's rules: roles are `user` and `model`; a tool result
// is a `functionResponse` part (its `response` an object: {output} or {error}) in the user turn
// after the call, one per call of that turn; the history starts with a user turn. Images a tool
// returned follow its responses as inline data; an image of a type Gemini does not read (GIF) is
// named in text instead. Gemini 3 refuses a replayed function call without
// its thought signature, so a turn whose calls carry none (another provider wrote it, or the
// signature was not kept) gets Google's documented placeholder on its first call.
import type { Content, Part } from "@google/genai";
import { pairToolResults } from "../pair-tool-results";
import { argumentsObject } from "../tool-arguments";
import type { NeutralMessage, NeutralPart } from "../types";

export const SKIP_SIGNATURE = "skip_thought_signature_validator";

// The image types Gemini reads; any other (a GIF) fails the whole request with a 400.
const IMAGE_TYPES: ReadonlySet<string> = new Set([
  "image/png",
  "image/jpeg",
  "image/webp",
  "image/heic",
  "image/heif",
]);

const image = (mimeType: string, data: string): Part =>
  IMAGE_TYPES.has(mimeType)
    ? { inlineData: { mimeType, data } }
    : { text: `[an image of type ${mimeType} was left out: Gemini does not read this type]` };

type ToolResult = Extract<NeutralPart, { type: "tool_result" }>;

function functionResponse(r: ToolResult): Part {
  const text = r.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n");
  return {
    functionResponse: {
      id: r.callId,
      name: r.name,
      response: r.isError ? { error: text } : { output: text },
    },
  };
}

function toParts(p: NeutralPart): Part[] {
  switch (p.type) {
    case "text":
      return p.text.trim() ? [{ text: p.text }] : [];
    case "image":
      return [image(p.mediaType, p.data)];
    case "reasoning":
    case "encrypted_reasoning":
    case "signed_thinking":
      return []; // Gemini reads nothing from thought text sent back, nor OpenAI's or Claude's.
    case "tool_call":
      return [
        {
          functionCall: { id: p.id, name: p.name, args: argumentsObject(p.arguments) },
          ...(p.signature && { thoughtSignature: p.signature }),
        },
      ];
    case "tool_result":
      return [
        functionResponse(p),
        ...p.content.flatMap((c) => (c.type === "image" ? [image(c.mediaType, c.data)] : [])),
      ];
    case "document":
      return [{ inlineData: { mimeType: p.mediaType, data: p.data } }];
  }
}

const order = (p: Part) => (p.functionResponse ? 0 : 1);

function signFirstCall(content: Content) {
  const calls = (content.parts ?? []).filter((p) => p.functionCall);
  if (calls.length && !calls.some((p) => p.thoughtSignature))
    calls[0]!.thoughtSignature = SKIP_SIGNATURE;
}

export function toGeminiContents(
  messages: readonly NeutralMessage[],
  opts: { signaturesRequired: boolean } = { signaturesRequired: false },
): Content[] {
  const out: Content[] = [];
  for (const m of pairToolResults(messages)) {
    const role = m.role === "assistant" ? "model" : "user";
    const parts = m.content.flatMap(toParts);
    if (parts.length === 0) continue;
    const last = out.at(-1);
    if (last && last.role === role) last.parts = [...(last.parts ?? []), ...parts];
    else out.push({ role, parts });
  }
  for (const c of out) {
    if (c.role === "user") c.parts?.sort((a, b) => order(a) - order(b));
    else if (opts.signaturesRequired) signFirstCall(c);
  }
  if (out[0]?.role === "model")
    out.unshift({ role: "user", parts: [{ text: "(conversation continues)" }] });
  return out;
}
