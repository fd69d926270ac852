// Gemini through @google/genai (API version v1beta): text, thoughts, function calls and
// function responses, with tool schemas rewritten to the subset Gemini accepts.
import {
  ApiError,
  type Content,
  FunctionCallingConfigMode,
  GoogleGenAI,
  type Part,
} from "@google/genai";
import { abortedError, errorFromStatus, isAbort, networkError, providerError } from "../errors";
import type {
  FinishReason,
  ModelProvider,
  ModelRequest,
  NeutralMessage,
  ProviderConfig,
  StreamEvent,
} from "../types";
import { toGeminiSchema } from "./convert-schema";

const FINISH: Record<string, FinishReason> = {
  STOP: "stop",
  MAX_TOKENS: "length",
  SAFETY: "content_filter",
  RECITATION: "content_filter",
  PROHIBITED_CONTENT: "content_filter",
  BLOCKLIST: "content_filter",
  SPII: "content_filter",
};

export function createGeminiProvider(config: ProviderConfig): ModelProvider {
  const baseFetch = config.fetch ?? fetch;
  return {
    id: "gemini",
    stream: (request) => {
      // The SDK's errors drop response headers; keep Retry-After from the response itself.
      const seen: { headers: Headers | null } = { headers: null };
      const ai = new GoogleGenAI({
        apiKey: config.apiKey ?? "",
        httpOptions: {
          apiVersion: "v1beta",
          ...(config.baseURL && { baseUrl: config.baseURL }),
          ...(config.headers && { headers: config.headers }),
          fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
            const res = await baseFetch(input, init);
            seen.headers = res.headers;
            return res;
          },
        },
      });
      return streamGemini(ai, request, seen);
    },
  };
}

export function toGeminiContents(messages: readonly NeutralMessage[]): Content[] {
  const out: Content[] = [];
  for (const m of messages) {
    const role = m.role === "assistant" ? "model" : "user";
    const parts: Part[] = [];
    for (const p of m.content) {
      if (p.type === "text" && p.text) parts.push({ text: p.text });
      else if (p.type === "image")
        parts.push({ inlineData: { mimeType: p.mediaType, data: p.data } });
      else if (p.type === "tool_call")
        parts.push({
          functionCall: {
            id: p.id,
            name: p.name,
            args: (p.arguments ?? {}) as Record<string, unknown>,
          },
        });
      else if (p.type === "tool_result") {
        const text = p.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n");
        parts.push({
          functionResponse: {
            id: p.callId,
            name: p.name,
            response: p.isError ? { error: text } : { output: text },
          },
        });
      }
    }
    if (parts.length === 0) continue;
    const last = out[out.length - 1];
    if (last && last.role === role) last.parts = [...(last.parts ?? []), ...parts];
    else out.push({ role, parts });
  }
  return out;
}

async function* streamGemini(
  ai: GoogleGenAI,
  request: ModelRequest,
  seen: { headers: Headers | null },
): AsyncIterable<StreamEvent> {
  let finish: FinishReason = "stop";
  let calls = 0;
  let usage: StreamEvent | null = null;
  const choice = request.toolChoice;
  try {
    const stream = await ai.models.generateContentStream({
      model: request.model,
      contents: toGeminiContents(request.messages),
      config: {
        ...(request.system && { systemInstruction: request.system }),
        ...(request.temperature !== undefined && { temperature: request.temperature }),
        ...(request.maxTokens !== undefined && { maxOutputTokens: request.maxTokens }),
        ...(request.signal && { abortSignal: request.signal }),
        ...(request.tools?.length && {
          tools: [
            {
              functionDeclarations: request.tools.map((t) => ({
                name: t.name,
                description: t.description,
                parameters: toGeminiSchema(t.inputSchema).schema,
              })),
            },
          ],
          toolConfig: {
            functionCallingConfig:
              choice === "none"
                ? { mode: FunctionCallingConfigMode.NONE }
                : choice === "required"
                  ? { mode: FunctionCallingConfigMode.ANY }
                  : typeof choice === "object"
                    ? { mode: FunctionCallingConfigMode.ANY, allowedFunctionNames: [choice.name] }
                    : { mode: FunctionCallingConfigMode.AUTO },
          },
        }),
        ...(request.providerOptions as object),
      },
    });
    for await (const chunk of stream) {
      const candidate = chunk.candidates?.[0];
      for (const part of candidate?.content?.parts ?? []) {
        if (part.text && part.thought) yield { type: "reasoning_delta", text: part.text };
        else if (part.text) yield { type: "text_delta", text: part.text };
        if (part.functionCall?.name) {
          calls++;
          yield {
            type: "tool_call",
            id: part.functionCall.id ?? `gemini_call_${calls}`,
            name: part.functionCall.name,
            arguments: part.functionCall.args ?? {},
          };
        }
      }
      if (candidate?.finishReason) finish = FINISH[candidate.finishReason] ?? "stop";
      if (chunk.usageMetadata) {
        usage = {
          type: "usage",
          inputTokens: chunk.usageMetadata.promptTokenCount ?? 0,
          outputTokens: chunk.usageMetadata.candidatesTokenCount ?? 0,
          cachedTokens: chunk.usageMetadata.cachedContentTokenCount ?? 0,
        };
      }
    }
  } catch (err) {
    yield { type: "error", error: mapGeminiError(err, request.signal, seen.headers) };
    return;
  }
  if (request.signal?.aborted) {
    yield { type: "error", error: abortedError() };
    return;
  }
  if (usage) yield usage;
  yield { type: "finish", reason: calls > 0 ? "tool_calls" : finish };
}

export function mapGeminiError(err: unknown, signal?: AbortSignal, headers: Headers | null = null) {
  if (isAbort(err, signal)) return abortedError();
  if (err instanceof ApiError) {
    let message = err.message;
    try {
      message =
        (JSON.parse(err.message) as { error?: { message?: string } }).error?.message ?? message;
    } catch {
      // the message is plain text
    }
    if (err.status === 400 && /token|too long|exceeds/i.test(message))
      return providerError(
        "context_too_long",
        `The conversation is too long for this model. ${message}`,
        { status: 400 },
      );
    return errorFromStatus(err.status, message, "GEMINI_API_KEY", headers);
  }
  if (err instanceof SyntaxError)
    return providerError("server_error", `Gemini sent a malformed stream: ${err.message}`);
  return networkError(err);
}
