// One chunk of Gemini's stream → events, plus what the end of the answer needs: the finish
// reason (on the last chunk; a prompt Gemini blocks gets `promptFeedback` and no candidate) and
// the usage so far (thinking tokens count as output, cached ones are part of the prompt count).
import type { GenerateContentResponse } from "@google/genai";
import { newCallId, toolCallEvent } from "../tool-arguments";
import type { StreamEvent } from "../types";
import { PROMPT_BLOCKED } from "./map-finish-reason";

export interface ChunkReading {
  events: StreamEvent[];
  finishReason?: string;
  /** Why Gemini blocked the prompt, when it did. */
  blockReason?: string;
  usage?: Extract<StreamEvent, { type: "usage" }>;
}

export function readChunk(
  chunk: Pick<GenerateContentResponse, "candidates" | "usageMetadata" | "promptFeedback">,
): ChunkReading {
  const candidate = chunk.candidates?.[0];
  const events: StreamEvent[] = [];
  for (const part of candidate?.content?.parts ?? []) {
    const call = part.functionCall;
    if (call?.name)
      events.push(
        toolCallEvent(call.id || newCallId(), call.name, JSON.stringify(call.args ?? {}), {
          ...(part.thoughtSignature && { signature: part.thoughtSignature }),
        }),
      );
    else if (part.text)
      events.push({ type: part.thought ? "reasoning_delta" : "text_delta", text: part.text });
  }
  const u = chunk.usageMetadata;
  const finishReason =
    candidate?.finishReason ?? (chunk.promptFeedback?.blockReason ? PROMPT_BLOCKED : undefined);
  const blockReason = chunk.promptFeedback?.blockReason;
  return {
    events,
    ...(finishReason && { finishReason }),
    ...(blockReason && { blockReason }),
    ...(u && {
      usage: {
        type: "usage",
        inputTokens: (u.promptTokenCount ?? 0) + (u.toolUsePromptTokenCount ?? 0),
        outputTokens: (u.candidatesTokenCount ?? 0) + (u.thoughtsTokenCount ?? 0),
        cachedTokens: u.cachedContentTokenCount ?? 0,
        ...(u.thoughtsTokenCount !== undefined && { reasoningTokens: u.thoughtsTokenCount }),
      },
    }),
  };
}
