// A neutral request → the Messages API body (API version 2026-10-21, which SDK 1.x sends):
// history, tools, prompt caching, and extended thinking from providerOptions.thinking kept within
// Anthropic's rules. That API version refuses sampling parameters (`temperature`, `top_p`,
// `top_k`, even at their defaults), so the request's temperature is not sent.
import type Anthropic from "@anthropic-ai/sdk";
import type { ModelRequest } from "../types";
import { toAnthropicMessages } from "./convert-messages";
import { forcesToolUse, prepareAnthropicTools } from "./prepare-tools";

export const DEFAULT_MAX_TOKENS = 4096;
const MIN_THINKING_BUDGET = 1024;
const SAMPLING = new Set(["temperature", "top_p", "top_k"]);

type Thinking = Anthropic.ThinkingConfigParam;

export function toAnthropicRequest(request: ModelRequest): Anthropic.MessageCreateParamsStreaming {
  const { thinking: askedThinking, ...options } = request.providerOptions ?? {};
  const passThrough = Object.fromEntries(Object.entries(options).filter(([k]) => !SAMPLING.has(k)));
  const maxTokens = request.maxTokens ?? DEFAULT_MAX_TOKENS;
  const tools = prepareAnthropicTools(request.tools, request.toolChoice);
  const thinking = forcesToolUse(tools.tool_choice)
    ? undefined
    : fitThinking(askedThinking as Thinking | undefined, maxTokens);
  return {
    ...passThrough,
    model: request.model,
    max_tokens: maxTokens,
    messages: toAnthropicMessages(request.messages),
    ...(request.system && { system: request.system }),
    ...tools,
    ...(thinking && { thinking }),
    // Caches everything up to the last block: each step of the thinking loop re-sends the same
    // tools, system prompt and history plus a little, and reads the rest from the cache.
    cache_control: { type: "ephemeral" },
    stream: true,
  };
}

/** The thinking budget must stay below max_tokens (which retries lower) and at 1024 or more. */
function fitThinking(thinking: Thinking | undefined, maxTokens: number): Thinking | undefined {
  if (!thinking || thinking.type !== "enabled") return thinking;
  const budget = Math.min(thinking.budget_tokens, maxTokens - 1);
  return budget >= MIN_THINKING_BUDGET ? { ...thinking, budget_tokens: budget } : undefined;
}
