// Anthropic through @anthropic-ai/sdk, streaming: text, thinking, tool_use with partial JSON.
import Anthropic from "@anthropic-ai/sdk";
import { abortedError, errorFromStatus, isAbort, networkError, providerError } from "../errors";
import { toObjectSchema } from "../json-schema";
import { parseToolArguments } from "../tool-arguments";
import type {
  FinishReason,
  ModelProvider,
  ModelRequest,
  ProviderConfig,
  StreamEvent,
} from "../types";
import { toAnthropicMessages } from "./convert-messages";

const STOP_REASONS: Record<string, FinishReason> = {
  end_turn: "stop",
  stop_sequence: "stop",
  tool_use: "tool_calls",
  max_tokens: "length",
  refusal: "content_filter",
  pause_turn: "stop",
};

export function createAnthropicProvider(config: ProviderConfig): ModelProvider {
  const client = new Anthropic({
    apiKey: config.apiKey ?? "",
    ...(config.baseURL && { baseURL: config.baseURL }),
    ...(config.headers && { defaultHeaders: config.headers }),
    ...(config.fetch && { fetch: config.fetch }),
    maxRetries: 0, // our retry policy decides
  });
  return { id: "anthropic", stream: (request) => streamAnthropic(client, request) };
}

function toolChoice(request: ModelRequest): Anthropic.ToolChoice | undefined {
  const c = request.toolChoice;
  if (!c || !request.tools?.length) return undefined;
  if (c === "auto") return { type: "auto" };
  if (c === "none") return { type: "none" };
  if (c === "required") return { type: "any" };
  return { type: "tool", name: c.name };
}

async function* streamAnthropic(
  client: Anthropic,
  request: ModelRequest,
): AsyncIterable<StreamEvent> {
  const calls = new Map<number, { id: string; name: string; json: string }>();
  let finish: FinishReason = "stop";
  let inputTokens = 0;
  let outputTokens = 0;
  let cachedTokens = 0;
  try {
    const choice = toolChoice(request);
    const stream = await client.messages.create(
      {
        model: request.model,
        max_tokens: request.maxTokens ?? 4096,
        messages: toAnthropicMessages(request.messages),
        ...(request.system && { system: request.system }),
        ...(request.temperature !== undefined && { temperature: request.temperature }),
        ...(request.tools?.length && {
          tools: request.tools.map((t) => ({
            name: t.name,
            description: t.description,
            input_schema: toObjectSchema(t.inputSchema) as Anthropic.Tool.InputSchema,
          })),
        }),
        ...(choice && { tool_choice: choice }),
        ...(request.providerOptions as object),
        stream: true,
      },
      { ...(request.signal && { signal: request.signal }) },
    );
    for await (const event of stream) {
      switch (event.type) {
        case "message_start":
          inputTokens = event.message.usage.input_tokens;
          cachedTokens = event.message.usage.cache_read_input_tokens ?? 0;
          outputTokens = event.message.usage.output_tokens;
          break;
        case "content_block_start":
          if (event.content_block.type === "tool_use")
            calls.set(event.index, {
              id: event.content_block.id,
              name: event.content_block.name,
              json: "",
            });
          break;
        case "content_block_delta":
          if (event.delta.type === "text_delta")
            yield { type: "text_delta", text: event.delta.text };
          else if (event.delta.type === "thinking_delta")
            yield { type: "reasoning_delta", text: event.delta.thinking };
          else if (event.delta.type === "input_json_delta") {
            const call = calls.get(event.index);
            if (call) call.json += event.delta.partial_json;
          }
          break;
        case "content_block_stop": {
          const call = calls.get(event.index);
          if (!call) break;
          calls.delete(event.index);
          const args = parseToolArguments(call.json);
          yield args.ok
            ? { type: "tool_call", id: call.id, name: call.name, arguments: args.value }
            : {
                type: "tool_call",
                id: call.id,
                name: call.name,
                arguments: call.json,
                argumentsError: args.message,
              };
          break;
        }
        case "message_delta":
          if (event.delta.stop_reason) finish = STOP_REASONS[event.delta.stop_reason] ?? "stop";
          outputTokens = event.usage.output_tokens ?? outputTokens;
          break;
        default:
          break;
      }
    }
  } catch (err) {
    yield { type: "error", error: mapAnthropicError(err, request.signal) };
    return;
  }
  // An aborted stream may simply end; it is still a cancellation, not a finished answer.
  if (request.signal?.aborted) {
    yield { type: "error", error: abortedError() };
    return;
  }
  yield { type: "usage", inputTokens, outputTokens, cachedTokens };
  yield { type: "finish", reason: finish };
}

export function mapAnthropicError(err: unknown, signal?: AbortSignal) {
  if (err instanceof Anthropic.APIUserAbortError || isAbort(err, signal)) return abortedError();
  if (err instanceof Anthropic.APIConnectionError) return networkError(err);
  if (err instanceof Anthropic.APIError) {
    const body = err.error as { error?: { type?: string; message?: string } } | undefined;
    const message = body?.error?.message ?? err.message;
    if (err.status === undefined) {
      // An error event inside a stream that began with HTTP 200.
      const type = body?.error?.type ?? "";
      if (type === "overloaded_error")
        return providerError("overloaded", `The provider is overloaded. ${message}`);
      if (type === "rate_limit_error") return providerError("rate_limit", message);
      return providerError("server_error", `The provider's stream failed: ${message}`);
    }
    return errorFromStatus(err.status, message, "ANTHROPIC_API_KEY", err.headers ?? null);
  }
  return networkError(err);
}
