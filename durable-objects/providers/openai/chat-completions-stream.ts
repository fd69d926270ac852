// OpenAI's chat completions, streamed (what OpenAI-compatible servers speak): tool-call arguments
// assembled by index, reasoning from the servers that send it (`reasoning_content` or
// `reasoning`), a refusal shown as the answer and ended as content_filter, usage from the final
// chunk.
import type OpenAI from "openai";
import { abortedError, counted, truncatedError } from "../errors";
import type { ModelRequest, StreamEvent } from "../types";
import { toOpenAIRequest } from "./build-request";
import { mapOpenAIError, openAIContext } from "./map-error";
import { mapOpenAIFinishReason } from "./map-finish-reason";
import { type PendingCalls, streamEnd, usageEvent } from "./stream-end";

type Delta = OpenAI.Chat.Completions.ChatCompletionChunk.Choice.Delta & {
  reasoning_content?: string | null;
  reasoning?: string | null;
};

export async function* streamChatCompletions(
  client: OpenAI,
  official: boolean,
  request: ModelRequest,
): AsyncIterable<StreamEvent> {
  const calls: PendingCalls = new Map();
  let finishReason: string | null = null;
  let refused = false;
  let usage: Extract<StreamEvent, { type: "usage" }> | null = null;
  try {
    const stream = await client.chat.completions.create(toOpenAIRequest(request, official), {
      ...(request.signal && { signal: request.signal }),
    });
    for await (const chunk of stream) {
      if (chunk.usage)
        usage = usageEvent(
          chunk.usage.prompt_tokens,
          chunk.usage.completion_tokens,
          chunk.usage.prompt_tokens_details?.cached_tokens,
          chunk.usage.completion_tokens_details?.reasoning_tokens,
        );
      const choice = chunk.choices[0];
      if (!choice) continue;
      const delta = choice.delta as Delta;
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      if (reasoning) yield { type: "reasoning_delta", text: reasoning };
      if (delta.content) yield { type: "text_delta", text: delta.content };
      // A refusal comes in its own field, not as content: shown as the answer it is.
      if (delta.refusal) {
        refused = true;
        yield { type: "text_delta", text: delta.refusal };
      }
      for (const tc of delta.tool_calls ?? []) {
        const call = calls.get(tc.index) ?? { id: "", name: "", json: "" };
        call.id ||= tc.id ?? "";
        // The name comes whole in the first delta; some servers repeat it in later ones.
        call.name ||= tc.function?.name ?? "";
        call.json += tc.function?.arguments ?? "";
        calls.set(tc.index, call);
      }
      finishReason = choice.finish_reason ?? finishReason;
    }
  } catch (err) {
    if (counted(usage)) yield { ...usage, cut: true };
    yield { type: "error", error: mapOpenAIError(err, openAIContext(official), request.signal) };
    return;
  }
  if (request.signal?.aborted) {
    if (counted(usage)) yield { ...usage, cut: true };
    yield { type: "error", error: abortedError() };
    return;
  }
  if (finishReason === null) {
    if (counted(usage)) yield { ...usage, cut: true };
    yield { type: "error", error: truncatedError(openAIContext(official).provider) };
    return;
  }
  yield* streamEnd(calls, usage, refused ? "content_filter" : mapOpenAIFinishReason(finishReason));
}
