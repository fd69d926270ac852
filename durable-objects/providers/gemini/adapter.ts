// Gemini through @google/genai (API version v1beta), streaming: text, thought summaries and
// function calls (whole, each with its thought signature when Gemini sends one), read chunk by
// chunk in read-chunk.ts. An answer is complete only once a chunk carries a finish reason; a
// stream that ends before is a cut connection.
import { GoogleGenAI } from "@google/genai";
import { abortedError, counted, missingCredentials, truncatedError } from "../errors";
import type { ModelProvider, ModelRequest, ProviderConfig, StreamEvent } from "../types";
import { toGeminiRequest } from "./build-request";
import { mapGeminiError } from "./map-error";
import { mapGeminiFinish } from "./map-finish-reason";
import { readChunk } from "./read-chunk";

export function createGeminiProvider(config: ProviderConfig): ModelProvider {
  return {
    id: "gemini",
    async *stream(request) {
      if (!config.apiKey)
        yield { type: "error", error: missingCredentials("Gemini", "GEMINI_API_KEY") };
      else yield* streamGemini(config, config.apiKey, request);
    },
  };
}

/** What the SDK's errors do not tell: whether a request went out, and the response's headers. */
interface Wire {
  sent: boolean;
  headers: Headers | null;
}

function client(config: ProviderConfig, apiKey: string, wire: Wire) {
  const baseFetch = config.fetch ?? fetch;
  return new GoogleGenAI({
    apiKey,
    httpOptions: {
      apiVersion: "v1beta",
      ...(config.baseURL && { baseUrl: config.baseURL }),
      ...(config.headers && { headers: config.headers }),
      // No retryOptions: the SDK then sends each request once, and retry.ts decides.
      fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
        wire.sent = true;
        const res = await baseFetch(input, init);
        wire.headers = res.headers;
        return res;
      },
    },
  });
}

async function* streamGemini(
  config: ProviderConfig,
  apiKey: string,
  request: ModelRequest,
): AsyncIterable<StreamEvent> {
  const wire: Wire = { sent: false, headers: null };
  let inStream = false;
  let calls = 0;
  let finishReason: string | null = null;
  let blockReason: string | undefined;
  let usage: Extract<StreamEvent, { type: "usage" }> | null = null;
  try {
    const stream = await client(config, apiKey, wire).models.generateContentStream(
      toGeminiRequest(request),
    );
    inStream = true;
    for await (const chunk of stream) {
      const reading = readChunk(chunk);
      for (const event of reading.events) {
        if (event.type === "tool_call") calls++;
        yield event;
      }
      usage = reading.usage ?? usage;
      finishReason = reading.finishReason ?? finishReason;
      blockReason = reading.blockReason ?? blockReason;
    }
  } catch (err) {
    // A call cut short still reports what the chunks so far counted.
    if (counted(usage)) yield { ...usage, cut: true };
    const error = mapGeminiError(err, {
      signal: request.signal,
      headers: wire.headers,
      sent: wire.sent,
      inStream,
    });
    yield { type: "error", error };
    return;
  }
  if (request.signal?.aborted) {
    if (counted(usage)) yield { ...usage, cut: true };
    yield { type: "error", error: abortedError() };
    return;
  }
  if (finishReason === null) {
    if (counted(usage)) yield { ...usage, cut: true };
    yield { type: "error", error: truncatedError("Gemini") };
    return;
  }
  const end = mapGeminiFinish(finishReason, calls > 0, blockReason);
  // An answer Gemini ended with an error (a block, say) still counted its tokens.
  if (end.type === "finish") {
    if (usage) yield usage;
  } else if (counted(usage)) yield { ...usage, cut: true };
  yield end;
}
