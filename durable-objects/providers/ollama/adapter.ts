// Ollama's native /api/chat (NDJSON stream), reached through a tunnel at OLLAMA_BASE_URL with
// optional Cloudflare Access service-token headers from the config. An answer is complete only
// at the line with `done: true`; a stream that ends before is a cut connection, and an `error`
// line ends it with that error. A model that refuses native tools ("… does not support tools")
// is asked again with the tools described in its prompt (prompt-tools/), one that refuses images
// ("… does not support image input": a tool's screenshot to a text model) with them named in
// text; and so are its later calls.
import { askAgainWithout } from "../ask-again";
import { abortedError, missingSetting, truncatedError } from "../errors";
import { withPromptTools } from "../prompt-tools/with-prompt-tools";
import { splitThinkTags } from "../think-tags";
import { imagesIfSeen } from "../without-images";
import type { ModelProvider, ModelRequest, ProviderConfig, StreamEvent } from "../types";
import { toOllamaRequest } from "./build-request";
import { mapOllamaDoneReason } from "./map-done-reason";
import {
  ollamaFailure,
  ollamaLineError,
  ollamaPageError,
  ollamaRedirectError,
  ollamaStatusError,
  ollamaUnreadable,
} from "./map-error";
import { chunkEvents, errorText, parseChunk } from "./read-chunk";
import { readLines } from "./read-lines";

const ACCESS_ID = "cf-access-client-id";
const ACCESS_SECRET = "cf-access-client-secret";

/** A setting missing before any request can go out, or null. */
function missing(config: ProviderConfig) {
  if (!config.baseURL?.trim())
    return missingSetting("Ollama", "OLLAMA_BASE_URL", "the URL of your tunnel to Ollama");
  const names = new Set(Object.keys(config.headers ?? {}).map((h) => h.toLowerCase()));
  if (names.has(ACCESS_ID) !== names.has(ACCESS_SECRET))
    return missingSetting(
      "The Cloudflare Access service token for Ollama",
      names.has(ACCESS_ID) ? "OLLAMA_ACCESS_CLIENT_SECRET" : "OLLAMA_ACCESS_CLIENT_ID",
      "the other half of the service token (or unset both)",
    );
  return null;
}

export function createOllamaProvider(config: ProviderConfig): ModelProvider {
  const seeing = imagesIfSeen(
    {
      id: "ollama",
      async *stream(request) {
        const problem = missing(config);
        if (problem) yield { type: "error", error: problem };
        else yield* splitThinkTags(thinkingIfTaken(config, request));
      },
    },
    /does not support image/i,
    config.onAskedAgain,
  );
  const prompted = withPromptTools(seeing);
  // Models that refused native tools: their later calls describe the tools in the prompt at once.
  const withoutTools = new Set<string>();
  return {
    id: "ollama",
    stream(request) {
      if (withoutTools.has(request.model)) return prompted.stream(request);
      return askAgainWithout(
        () => seeing.stream(request),
        request.tools?.length
          ? () => {
              withoutTools.add(request.model);
              return prompted.stream(request);
            }
          : null,
        {
          what: "native tools",
          model: request.model,
          refusedFor: /does not support tools/i,
          onAskedAgain: config.onAskedAgain,
        },
      );
    },
  };
}

/**
 * A model that cannot think refuses `think` ("… does not support thinking"): a conversation's
 * reasoning effort then asks again without it.
 */
function thinkingIfTaken(config: ProviderConfig, request: ModelRequest) {
  const { reasoningEffort, ...plain } = request;
  return askAgainWithout(
    () => streamOllama(config, request),
    reasoningEffort ? () => streamOllama(config, plain) : null,
    {
      what: "reasoning effort",
      model: request.model,
      refusedFor: /think/i,
      onAskedAgain: config.onAskedAgain,
    },
  );
}

async function* streamOllama(
  config: ProviderConfig,
  request: ModelRequest,
): AsyncIterable<StreamEvent> {
  const url = `${config.baseURL!.trim().replace(/\/+$/, "")}/api/chat`;
  let response: Response;
  try {
    response = await (config.fetch ?? fetch)(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...config.headers },
      body: JSON.stringify(toOllamaRequest(request)),
      // Access answers a request without a valid token with a redirect to its login page.
      redirect: "manual",
      ...(request.signal && { signal: request.signal }),
    });
  } catch (err) {
    yield { type: "error", error: ollamaFailure(err, request.signal) };
    return;
  }
  if (response.status >= 300 && response.status < 400) {
    yield {
      type: "error",
      error: ollamaRedirectError(response.status, response.headers.get("location")),
    };
    return;
  }
  if (!response.ok || !response.body) {
    const body = await response.text().catch(() => "");
    yield { type: "error", error: ollamaStatusError(response.status, body, response.headers) };
    return;
  }
  if (response.headers.get("content-type")?.includes("text/html")) {
    await response.body.cancel();
    yield { type: "error", error: ollamaPageError() };
    return;
  }
  yield* readAnswer(response.body, request.signal);
}

async function* readAnswer(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal | undefined,
): AsyncIterable<StreamEvent> {
  let calls = 0;
  try {
    for await (const line of readLines(body)) {
      const chunk = parseChunk(line);
      if (!chunk) {
        yield { type: "error", error: ollamaUnreadable(line) };
        return;
      }
      if (chunk.error !== undefined) {
        yield { type: "error", error: ollamaLineError(errorText(chunk.error)) };
        return;
      }
      for (const event of chunkEvents(chunk)) {
        if (event.type === "tool_call") calls++;
        yield event;
      }
      if (chunk.done) {
        yield {
          type: "usage",
          inputTokens: chunk.prompt_eval_count ?? 0,
          outputTokens: chunk.eval_count ?? 0,
        };
        yield { type: "finish", reason: mapOllamaDoneReason(chunk.done_reason, calls > 0) };
        return;
      }
    }
  } catch (err) {
    yield { type: "error", error: ollamaFailure(err, signal) };
    return;
  }
  yield { type: "error", error: signal?.aborted ? abortedError() : truncatedError("Ollama") };
}
