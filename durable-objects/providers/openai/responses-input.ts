// Neutral history → the Responses API's input items: a message per user or assistant turn, a
// `function_call` item per call and a `function_call_output` item answering it by call id (with
// any images the tool returned in the output itself); calls without results and stray results
// repaired first (see pair-tool-results.ts). Of reasoning, only the encrypted reasoning the same
// model wrote goes back, before the calls it led to; reasoning text is never sent.
import type OpenAI from "openai";
import { pairToolResults, toolResultText } from "../pair-tool-results";
import { argumentsText } from "../tool-arguments";
import type { NeutralMessage, NeutralPart } from "../types";

type Item = OpenAI.Responses.ResponseInputItem;
type ContentPart = OpenAI.Responses.ResponseInputContent;
type ToolResult = Extract<NeutralPart, { type: "tool_result" }>;

const dataUrl = (mediaType: string, data: string) => `data:${mediaType};base64,${data}`;

const imagePart = (mediaType: string, data: string) => ({
  type: "input_image" as const,
  detail: "auto" as const,
  image_url: dataUrl(mediaType, data),
});

function callOutput(r: ToolResult): Item {
  const said = toolResultText(r);
  const images = r.content.flatMap((c) =>
    c.type === "image" ? [imagePart(c.mediaType, c.data)] : [],
  );
  return {
    type: "function_call_output",
    call_id: r.callId,
    output: images.length ? [{ type: "input_text", text: said }, ...images] : said,
  };
}

function assistantItems(parts: readonly NeutralPart[], model: string | null): Item[] {
  // One reasoning item, the first, right before what followed it: OpenAI wants each reasoning
  // item followed by the output it led to, and the history no longer says which call came after
  // a later one.
  const sealed = parts.find(
    (p): p is Extract<NeutralPart, { type: "encrypted_reasoning" }> =>
      p.type === "encrypted_reasoning" && p.model === model,
  );
  const items: Item[] = sealed
    ? [{ type: "reasoning", id: sealed.id, encrypted_content: sealed.data, summary: [] }]
    : [];
  const text = parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
  if (text) items.push({ role: "assistant", content: text });
  for (const p of parts)
    if (p.type === "tool_call")
      items.push({
        type: "function_call",
        call_id: p.id,
        name: p.name,
        arguments: argumentsText(p.arguments),
      });
  return items;
}

/** `model`: the model asked, which alone can read the encrypted reasoning it wrote (null: none). */
export function toResponsesInput(
  messages: readonly NeutralMessage[],
  model: string | null,
): Item[] {
  const out: Item[] = [];
  for (const m of pairToolResults(messages)) {
    if (m.role === "assistant") {
      out.push(...assistantItems(m.content, model));
      continue;
    }
    const parts: ContentPart[] = [];
    for (const p of m.content) {
      if (p.type === "tool_result") out.push(callOutput(p));
      else if (p.type === "text" && p.text) parts.push({ type: "input_text", text: p.text });
      else if (p.type === "image") parts.push(imagePart(p.mediaType, p.data));
      else if (p.type === "document")
        parts.push({
          type: "input_file",
          filename: p.name,
          file_data: dataUrl(p.mediaType, p.data),
        });
    }
    if (parts.length === 0) continue;
    const only = parts.length === 1 ? parts[0] : undefined;
    out.push({ role: "user", content: only?.type === "input_text" ? only.text : parts });
  }
  return out;
}
