// A neutral request → a streamed chat-completions body. OpenAI's own reasoning models (o-series,
// gpt-5) refuse `max_tokens` and any temperature but the default; OpenAI-compatible servers often
// know only `max_tokens`. Which one we talk to is decided by the base URL.
import type OpenAI from "openai";
import type { ModelRequest } from "../types";
import { toOpenAIMessages } from "./convert-messages";
import { prepareOpenAITools } from "./prepare-tools";

const REASONING_MODEL = /^(o\d|gpt-5)/;

export function toOpenAIRequest(
  request: ModelRequest,
  official: boolean,
): OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming {
  const reasoning = official && REASONING_MODEL.test(request.model);
  return {
    ...request.providerOptions,
    model: request.model,
    messages: toOpenAIMessages(request.system, request.messages),
    ...prepareOpenAITools(request.tools, request.toolChoice),
    ...(request.maxTokens !== undefined &&
      (official
        ? { max_completion_tokens: request.maxTokens }
        : { max_tokens: request.maxTokens })),
    ...(request.temperature !== undefined && !reasoning && { temperature: request.temperature }),
    stream: true,
    stream_options: { include_usage: true },
  };
}
