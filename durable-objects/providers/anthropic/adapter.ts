// Anthropic through @anthropic-ai/sdk, streaming: text, thinking (streamed as reasoning, and kept
// whole with its signature, or sealed when redacted, to go back with the step's calls), tool_use
// blocks whose partial JSON is assembled into one parsed call, usage with cache reads (a call that
// fails after message_start still reports the figures it had: its input was counted there).
// The bare client with only the Messages resource: the full `Anthropic` client brings every other
// resource (beta, files, skills, …), about 250 KiB of script (45 KiB gzip) this worker never runs.
import { BaseAnthropic } from "@anthropic-ai/sdk/client";
import { Messages } from "@anthropic-ai/sdk/resources/messages/messages";
import { askAgainWithout } from "../ask-again";
import { abortedError, missingCredentials, truncatedError } from "../errors";
import { toolCallEvent } from "../tool-arguments";
import type {
  ModelProvider,
  ModelRequest,
  ProviderConfig,
  SignedThinking,
  StreamEvent,
} from "../types";
import { asksForThinking, type RequestOptions, toAnthropicRequest } from "./build-request";
import { mapAnthropicError } from "./map-error";
import { mapAnthropicStopReason } from "./map-stop-reason";

export function createAnthropicProvider(config: ProviderConfig): ModelProvider {
  const messages = config.apiKey
    ? new Messages(
        new BaseAnthropic({
          apiKey: config.apiKey,
          ...(config.baseURL && { baseURL: config.baseURL }),
          ...(config.headers && { defaultHeaders: config.headers }),
          ...(config.fetch && { fetch: config.fetch }),
          maxRetries: 0, // retry.ts decides
        }),
      )
    : null;
  return {
    id: "anthropic",
    async *stream(request) {
      if (!messages)
        yield { type: "error", error: missingCredentials("Anthropic", "ANTHROPIC_API_KEY") };
      else yield* refusalsAskedAgain(messages, request);
    },
  };
}

/**
 * What Claude may refuse is asked again without it: the thinking we ask for (a reasoning effort,
 * or the summary of the thinking a newer model does anyway) should the model not take it as
 * asked, and a forced tool call while it thinks, which the newest models always do (the
 * formatter's step at the end of a turn is then asked with the tool offered, not forced; a model
 * that answers in text ends the turn with it).
 */
function refusalsAskedAgain(messages: Messages, request: ModelRequest) {
  const thinkingIfTaken = (asked: ModelRequest) =>
    askAgainWithout(
      () => streamAnthropic(messages, asked),
      asksForThinking(asked)
        ? () => streamAnthropic(messages, asked, { ownThinking: false })
        : null,
      {
        what: "thinking asked for",
        model: asked.model,
        refusedFor: /thinking|effort|output_config|display/i,
      },
    );
  const forced = typeof request.toolChoice === "object" || request.toolChoice === "required";
  return askAgainWithout(
    () => thinkingIfTaken(request),
    forced ? () => thinkingIfTaken({ ...request, toolChoice: "auto" }) : null,
    { what: "forced tool call", model: request.model, refusedFor: /tool_choice/i },
  );
}

async function* streamAnthropic(
  messages: Messages,
  request: ModelRequest,
  options: RequestOptions = {},
): AsyncIterable<StreamEvent> {
  const calls = new Map<number, { id: string; name: string; json: string }>();
  // Thinking blocks by index, handed out only once the message completed: a failed attempt's
  // blocks must not go back with another attempt's calls.
  const thinking = new Map<number, SignedThinking>();
  const usage = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
  let stopReason: string | null = null;
  /** Why Claude refused, in Anthropic's words (a streaming refusal's stop_details). */
  let stopDetail: string | null = null;
  let started = false;
  let complete = false;
  /** The figures as far as they went, for a call that ends before message_stop. */
  const cutUsage = (): StreamEvent[] =>
    started && usage.input + usage.cacheRead + usage.cacheWrite + usage.output > 0
      ? [{ ...usageEvent(usage), cut: true }]
      : [];
  try {
    const stream = await messages.create(toAnthropicRequest(request, options), {
      ...(request.signal && { signal: request.signal }),
    });
    for await (const event of stream) {
      switch (event.type) {
        case "message_start": {
          const u = event.message.usage;
          usage.input = u.input_tokens;
          usage.cacheRead = u.cache_read_input_tokens ?? 0;
          usage.cacheWrite = u.cache_creation_input_tokens ?? 0;
          usage.output = u.output_tokens;
          started = true;
          break;
        }
        case "content_block_start": {
          const block = event.content_block;
          if (block.type === "tool_use")
            calls.set(event.index, { id: block.id, name: block.name, json: "" });
          else if (block.type === "thinking")
            thinking.set(event.index, {
              model: request.model,
              thinking: block.thinking,
              signature: block.signature,
            });
          else if (block.type === "redacted_thinking")
            thinking.set(event.index, { model: request.model, redacted: block.data });
          break;
        }
        case "content_block_delta": {
          const d = event.delta;
          if (d.type === "text_delta") yield { type: "text_delta", text: d.text };
          else if (d.type === "thinking_delta") {
            const block = thinking.get(event.index);
            if (block && "thinking" in block) block.thinking += d.thinking;
            yield { type: "reasoning_delta", text: d.thinking };
          } else if (d.type === "signature_delta") {
            const block = thinking.get(event.index);
            if (block && "signature" in block) block.signature += d.signature;
          } else if (d.type === "input_json_delta") {
            const call = calls.get(event.index);
            if (call) call.json += d.partial_json;
          }
          break;
        }
        case "content_block_stop": {
          const call = calls.get(event.index);
          if (!call) break;
          calls.delete(event.index);
          yield toolCallEvent(call.id, call.name, call.json);
          break;
        }
        case "message_delta":
          stopReason = event.delta.stop_reason ?? stopReason;
          stopDetail = event.delta.stop_details?.explanation ?? stopDetail;
          // message_delta carries cumulative counts; the input ones only on newer API versions.
          usage.output = event.usage.output_tokens ?? usage.output;
          usage.input = event.usage.input_tokens ?? usage.input;
          usage.cacheRead = event.usage.cache_read_input_tokens ?? usage.cacheRead;
          usage.cacheWrite = event.usage.cache_creation_input_tokens ?? usage.cacheWrite;
          break;
        case "message_stop":
          complete = true;
          break;
      }
    }
  } catch (err) {
    yield* cutUsage();
    yield { type: "error", error: mapAnthropicError(err, request.signal) };
    return;
  }
  if (request.signal?.aborted) {
    yield* cutUsage();
    yield { type: "error", error: abortedError() };
    return;
  }
  if (!complete) {
    yield* cutUsage();
    yield { type: "error", error: truncatedError("Anthropic") };
    return;
  }
  // In the blocks' order: each starts after the one before it stopped.
  for (const block of thinking.values())
    if ("redacted" in block || block.signature) yield { type: "signed_thinking", ...block };
  yield usageEvent(usage);
  // Cut by the context window, not by max tokens: raising max tokens would not help.
  if (stopReason === "model_context_window_exceeded")
    stopDetail = "the conversation filled the model's context window.";
  yield {
    type: "finish",
    reason: mapAnthropicStopReason(stopReason),
    ...(stopDetail && { detail: stopDetail }),
  };
}

function usageEvent(usage: {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}): Extract<StreamEvent, { type: "usage" }> {
  return {
    type: "usage",
    inputTokens: usage.input + usage.cacheRead + usage.cacheWrite,
    outputTokens: usage.output,
    cachedTokens: usage.cacheRead,
  };
}
