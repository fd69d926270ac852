// A neutral request → the Messages API body (API version 2026-10-21, which SDK 1.x sends):
// history, tools, prompt caching, and thinking (the conversation's reasoning effort, or
// providerOptions.thinking) kept within Anthropic's rules. That API version refuses sampling
// parameters (`temperature`, `top_p`, `top_k`, even at their defaults), so the request's
// temperature is not sent.
import type Anthropic from "@anthropic-ai/sdk";
import { REASONING_TOKENS, withReasoningRoom } from "../reasoning-effort";
import type { ModelRequest, ReasoningEffort } from "../types";
import { toAnthropicMessages } from "./convert-messages";
import { thinkingForm, thinksByDefault } from "./model-family";
import { forcesToolUse, prepareAnthropicTools } from "./prepare-tools";

export const DEFAULT_MAX_TOKENS = 4096;
const MIN_THINKING_BUDGET = 1024;
const SAMPLING = new Set(["temperature", "top_p", "top_k"]);
/** The most one response of a current Claude model may hold, thinking included. */
const MAX_OUTPUT_TOKENS = 64_000;

type Thinking = Anthropic.ThinkingConfigParam;
/** Adaptive thinking, shown as a summary: the newest models leave its text out unless asked. */
const SUMMARIZED = { type: "adaptive", display: "summarized" } as const;

export interface RequestOptions {
  /**
   * False leaves out the thinking we ask for (see thinkingFor): the request Claude cannot refuse
   * for it.
   */
  ownThinking?: boolean;
}

/** Whether a request asks Claude for thinking of our own (an effort, or a summary of it). */
export const asksForThinking = (request: ModelRequest) =>
  !request.providerOptions?.thinking &&
  (request.reasoningEffort !== undefined || thinksByDefault(request.model));

export function toAnthropicRequest(
  request: ModelRequest,
  { ownThinking = true }: RequestOptions = {},
): Anthropic.MessageCreateParamsStreaming {
  const { thinking: askedThinking, ...options } = request.providerOptions ?? {};
  const passThrough = Object.fromEntries(Object.entries(options).filter(([k]) => !SAMPLING.has(k)));
  const tools = prepareAnthropicTools(request.tools, request.toolChoice);
  const { thinking, maxTokens, outputConfig } = thinkingFor(
    request,
    askedThinking as Thinking | undefined,
    forcesToolUse(tools.tool_choice),
    ownThinking,
  );
  return {
    ...passThrough,
    model: request.model,
    max_tokens: maxTokens,
    messages: toAnthropicMessages(request.messages, request.model),
    ...(request.system && { system: request.system }),
    ...tools,
    ...(thinking && { thinking }),
    ...(outputConfig && {
      output_config: { ...(passThrough.output_config as object | undefined), ...outputConfig },
    }),
    // Caches everything up to the last block: each step of the thinking loop re-sends the same
    // tools, system prompt and history plus a little, and reads the rest from the cache.
    cache_control: { type: "ephemeral" },
    stream: true,
  };
}

/**
 * The thinking a request asks for, and the max_tokens that leaves the answer its own. An operator's
 * providerOptions.thinking is sent as set. Ours (`own`): a reasoning effort asks Claude 4.6 and
 * later to think adaptively at that effort, and Claude 3.7 to 4.5 to think within a budget (which
 * Anthropic refuses beside a forced tool call, so such a step does without); older models are
 * asked nothing. Without an effort, a model that thinks anyway is asked only to show a summary of
 * its thinking, which it otherwise leaves out. Either way the thinking gets room of its own.
 */
function thinkingFor(
  request: ModelRequest,
  asked: Thinking | undefined,
  forced: boolean,
  own: boolean,
): { thinking?: Thinking; maxTokens: number; outputConfig?: { effort: ReasoningEffort } } {
  const answer = request.maxTokens ?? DEFAULT_MAX_TOKENS;
  if (asked) return { maxTokens: answer, ...(!forced && { thinking: fitThinking(asked, answer) }) };
  const withRoom = (effort: ReasoningEffort | undefined) =>
    Math.min(withReasoningRoom(answer, true, effort), MAX_OUTPUT_TOKENS);
  const effort = own ? request.reasoningEffort : undefined;
  if (!effort)
    return own && thinksByDefault(request.model)
      ? { thinking: SUMMARIZED, maxTokens: withRoom(undefined) }
      : { maxTokens: answer };
  const form = thinkingForm(request.model);
  if (!form || (form === "budget" && forced)) return { maxTokens: answer };
  const maxTokens = withRoom(effort);
  if (form === "adaptive") return { thinking: SUMMARIZED, maxTokens, outputConfig: { effort } };
  const budget = { type: "enabled", budget_tokens: REASONING_TOKENS[effort] } as const;
  return { thinking: fitThinking(budget, maxTokens), maxTokens };
}

/** The thinking budget must stay below max_tokens (which retries lower) and at 1024 or more. */
function fitThinking(thinking: Thinking | undefined, maxTokens: number): Thinking | undefined {
  if (!thinking || thinking.type !== "enabled") return thinking;
  const budget = Math.min(thinking.budget_tokens, maxTokens - 1);
  return budget >= MIN_THINKING_BUDGET ? { ...thinking, budget_tokens: budget } : undefined;
}
