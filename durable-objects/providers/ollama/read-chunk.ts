// One line of Ollama's /api/chat stream → events. Ollama sends the thinking as `thinking`
// (servers modelled on OpenAI's field name call it `reasoning_content`), each tool call whole
// with its arguments as an object, and an `error` line when the model fails mid-stream.
import { z } from "zod";
import { newCallId, toolCallEvent } from "../tool-arguments";
import type { StreamEvent } from "../types";

export const OllamaChunk = z
  .object({
    message: z
      .object({
        content: z.string().nullish(),
        thinking: z.string().nullish(),
        reasoning_content: z.string().nullish(),
        tool_calls: z
          .array(
            z.object({
              id: z.string().optional(),
              function: z.object({ name: z.string(), arguments: z.unknown() }),
            }),
          )
          .nullish(),
      })
      .nullish(),
    done: z.boolean().optional(),
    done_reason: z.string().optional(),
    prompt_eval_count: z.number().optional(),
    eval_count: z.number().optional(),
    // Ollama's own error lines hold a string; some proxies send an object with a message.
    error: z.union([z.string(), z.object({ message: z.string() }).passthrough()]).optional(),
  })
  .passthrough();
export type OllamaChunk = z.infer<typeof OllamaChunk>;

/** One line, or null when it is not JSON of the chat stream's shape. */
export function parseChunk(line: string): OllamaChunk | null {
  try {
    const parsed = OllamaChunk.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function chunkEvents(chunk: OllamaChunk): StreamEvent[] {
  const m = chunk.message;
  if (!m) return [];
  const events: StreamEvent[] = [];
  const thinking = m.thinking || m.reasoning_content;
  if (thinking) events.push({ type: "reasoning_delta", text: thinking });
  if (m.content) events.push({ type: "text_delta", text: m.content });
  for (const call of m.tool_calls ?? []) {
    const args = call.function.arguments;
    const json = typeof args === "string" ? args : JSON.stringify(args ?? {});
    events.push(toolCallEvent(call.id || newCallId(), call.function.name, json));
  }
  return events;
}

export const errorText = (error: NonNullable<OllamaChunk["error"]>) =>
  typeof error === "string" ? error : error.message;
