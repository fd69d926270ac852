// A neutral request → a streamed chat-completions body. OpenAI's own models take
// `max_completion_tokens` (its reasoning models refuse `max_tokens`); OpenAI-compatible servers
// often know only `max_tokens`. Which one we talk to is decided by the base URL.
import type OpenAI from "openai";
import { withReasoningRoom } from "../reasoning-effort";
import type { ModelRequest } from "../types";
import { toOpenAIMessages } from "./convert-messages";
import { prepareOpenAITools } from "./prepare-tools";
import { reasons, takesTemperature } from "./sampling";

export function toOpenAIRequest(
  request: ModelRequest,
  official: boolean,
): OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming {
  // Only OpenAI's own reasoning models are sent an effort: a compatible server may refuse it.
  const reasoning = reasons(request.model, official);
  const effort = reasoning ? request.reasoningEffort : undefined;
  return {
    ...request.providerOptions,
    model: request.model,
    messages: toOpenAIMessages(request.system, request.messages),
    ...prepareOpenAITools(request.tools, request.toolChoice),
    ...(request.maxTokens !== undefined &&
      (official
        ? { max_completion_tokens: withReasoningRoom(request.maxTokens, reasoning, effort) }
        : { max_tokens: request.maxTokens })),
    ...(effort && { reasoning_effort: effort }),
    ...(request.temperature !== undefined &&
      takesTemperature(request.model, official) && { temperature: request.temperature }),
    stream: true,
    stream_options: { include_usage: true },
  };
}
