// OpenAI (and any OpenAI-compatible endpoint, through baseURL) with the `openai` SDK: chat
// completions streamed, tool-call arguments assembled by index.
import OpenAI from "openai";
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
import { toOpenAIMessages } from "./convert-messages";

const FINISH: Record<string, FinishReason> = {
  stop: "stop",
  tool_calls: "tool_calls",
  function_call: "tool_calls",
  length: "length",
  content_filter: "content_filter",
};

export function createOpenAIProvider(config: ProviderConfig): ModelProvider {
  const client = new OpenAI({
    apiKey: config.apiKey ?? "",
    ...(config.baseURL && { baseURL: config.baseURL }),
    ...(config.headers && { defaultHeaders: config.headers }),
    ...(config.fetch && { fetch: config.fetch }),
    maxRetries: 0,
  });
  return { id: "openai", stream: (request) => streamOpenAI(client, request) };
}

function toolChoice(
  request: ModelRequest,
): OpenAI.Chat.Completions.ChatCompletionToolChoiceOption | undefined {
  const c = request.toolChoice;
  if (!c || !request.tools?.length) return undefined;
  if (typeof c === "string") return c;
  return { type: "function", function: { name: c.name } };
}

async function* streamOpenAI(client: OpenAI, request: ModelRequest): AsyncIterable<StreamEvent> {
  const calls = new Map<number, { id: string; name: string; json: string }>();
  let finish: FinishReason = "stop";
  let usage: StreamEvent | null = null;
  try {
    const choice = toolChoice(request);
    const stream = await client.chat.completions.create(
      {
        model: request.model,
        messages: toOpenAIMessages(request.system, request.messages),
        stream: true,
        stream_options: { include_usage: true },
        ...(request.maxTokens !== undefined && { max_tokens: request.maxTokens }),
        ...(request.temperature !== undefined && { temperature: request.temperature }),
        ...(request.tools?.length && {
          tools: request.tools.map((t) => ({
            type: "function" as const,
            function: {
              name: t.name,
              description: t.description,
              parameters: toObjectSchema(t.inputSchema),
            },
          })),
        }),
        ...(choice && { tool_choice: choice }),
        ...(request.providerOptions as object),
      },
      { ...(request.signal && { signal: request.signal }) },
    );
    for await (const chunk of stream) {
      if (chunk.usage) {
        usage = {
          type: "usage",
          inputTokens: chunk.usage.prompt_tokens,
          outputTokens: chunk.usage.completion_tokens,
          cachedTokens: chunk.usage.prompt_tokens_details?.cached_tokens ?? 0,
        };
      }
      const c = chunk.choices[0];
      if (!c) continue;
      const delta = c.delta as typeof c.delta & { reasoning_content?: string; reasoning?: string };
      if (delta.content) yield { type: "text_delta", text: delta.content };
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      if (reasoning) yield { type: "reasoning_delta", text: reasoning };
      for (const tc of delta.tool_calls ?? []) {
        const call = calls.get(tc.index) ?? { id: "", name: "", json: "" };
        if (tc.id) call.id = tc.id;
        if (tc.function?.name) call.name += tc.function.name;
        if (tc.function?.arguments) call.json += tc.function.arguments;
        calls.set(tc.index, call);
      }
      if (c.finish_reason) finish = FINISH[c.finish_reason] ?? "stop";
    }
  } catch (err) {
    yield { type: "error", error: mapOpenAIError(err, request.signal) };
    return;
  }
  if (request.signal?.aborted) {
    yield { type: "error", error: abortedError() };
    return;
  }
  for (const [index, call] of [...calls.entries()].sort(([a], [b]) => a - b)) {
    const args = parseToolArguments(call.json);
    const id = call.id || `call_${index}`;
    yield args.ok
      ? { type: "tool_call", id, name: call.name, arguments: args.value }
      : {
          type: "tool_call",
          id,
          name: call.name,
          arguments: call.json,
          argumentsError: args.message,
        };
  }
  if (usage) yield usage;
  yield { type: "finish", reason: calls.size > 0 ? "tool_calls" : finish };
}

export function mapOpenAIError(err: unknown, signal?: AbortSignal) {
  if (err instanceof OpenAI.APIUserAbortError || isAbort(err, signal)) return abortedError();
  if (err instanceof OpenAI.APIConnectionError) return networkError(err);
  if (err instanceof OpenAI.APIError) {
    if (err.status === undefined)
      return providerError("server_error", `The provider's stream failed: ${err.message}`);
    const code = (err.error as { code?: string } | undefined)?.code;
    if (code === "context_length_exceeded")
      return providerError(
        "context_too_long",
        `The conversation is too long for this model. ${err.message}`,
        { status: err.status },
      );
    return errorFromStatus(err.status, err.message, "OPENAI_API_KEY", err.headers ?? null);
  }
  return networkError(err);
}
