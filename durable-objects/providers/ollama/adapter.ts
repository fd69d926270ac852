// Ollama's native /api/chat (NDJSON stream), usually reached through a tunnel: num_ctx and think
// honoured, tool calls, Cloudflare Access service-token headers from the config.
import { z } from "zod";
import { abortedError, errorFromStatus, isAbort, networkError, providerError } from "../errors";
import { toObjectSchema } from "../json-schema";
import type {
  ModelProvider,
  ModelRequest,
  NeutralMessage,
  ProviderConfig,
  StreamEvent,
} from "../types";

const Chunk = z
  .object({
    message: z
      .object({
        content: z.string().optional(),
        thinking: z.string().optional(),
        // Some Ollama-compatible servers name it after OpenAI's field.
        reasoning_content: z.string().optional(),
        tool_calls: z
          .array(z.object({ function: z.object({ name: z.string(), arguments: z.unknown() }) }))
          .optional(),
      })
      .optional(),
    done: z.boolean().optional(),
    done_reason: z.string().optional(),
    prompt_eval_count: z.number().optional(),
    eval_count: z.number().optional(),
    error: z.string().optional(),
  })
  .passthrough();

export function createOllamaProvider(config: ProviderConfig): ModelProvider {
  const fetchImpl = config.fetch ?? fetch;
  const base = (config.baseURL ?? "http://127.0.0.1:11434").replace(/\/+$/, "");
  return {
    id: "ollama",
    stream: (request) => streamOllama(fetchImpl, base, config.headers ?? {}, request),
  };
}

function toOllamaMessages(system: string | undefined, messages: readonly NeutralMessage[]) {
  const out: Array<Record<string, unknown>> = system ? [{ role: "system", content: system }] : [];
  for (const m of messages) {
    const text = m.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
    const images = m.content.flatMap((p) => (p.type === "image" ? [p.data] : []));
    if (m.role === "assistant") {
      const calls = m.content.flatMap((p) =>
        p.type === "tool_call"
          ? [{ function: { name: p.name, arguments: p.arguments ?? {} } }]
          : [],
      );
      out.push({ role: "assistant", content: text, ...(calls.length && { tool_calls: calls }) });
      continue;
    }
    for (const p of m.content) {
      if (p.type === "tool_result") {
        out.push({
          role: "tool",
          tool_name: p.name,
          content: p.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n"),
        });
      }
    }
    if (text || images.length)
      out.push({ role: "user", content: text, ...(images.length && { images }) });
  }
  return out;
}

async function* streamOllama(
  fetchImpl: typeof fetch,
  base: string,
  headers: Record<string, string>,
  request: ModelRequest,
): AsyncIterable<StreamEvent> {
  const opts = (request.providerOptions ?? {}) as { num_ctx?: number; think?: boolean | string };
  let response: Response;
  try {
    response = await fetchImpl(`${base}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({
        model: request.model,
        messages: toOllamaMessages(request.system, request.messages),
        stream: true,
        ...(request.tools?.length && {
          tools: request.tools.map((t) => ({
            type: "function",
            function: {
              name: t.name,
              description: t.description,
              parameters: toObjectSchema(t.inputSchema),
            },
          })),
        }),
        ...(opts.think !== undefined && { think: opts.think }),
        options: {
          ...(opts.num_ctx !== undefined && { num_ctx: opts.num_ctx }),
          ...(request.temperature !== undefined && { temperature: request.temperature }),
          ...(request.maxTokens !== undefined && { num_predict: request.maxTokens }),
        },
      }),
      ...(request.signal && { signal: request.signal }),
    });
  } catch (err) {
    yield {
      type: "error",
      error: isAbort(err, request.signal) ? abortedError() : networkError(err),
    };
    return;
  }
  if (!response.ok || !response.body) {
    const text = await response.text().catch(() => "");
    const message = (() => {
      try {
        return (JSON.parse(text) as { error?: string }).error ?? text;
      } catch {
        return text;
      }
    })();
    yield {
      type: "error",
      error: errorFromStatus(
        response.status,
        message,
        "OLLAMA_BASE_URL (and the Access service token)",
        response.headers,
      ),
    };
    return;
  }
  let buffer = "";
  let calls = 0;
  let done = false;
  const decoder = new TextDecoder();
  try {
    const reader = response.body.getReader();
    for (;;) {
      const { value: bytes, done: ended } = await reader.read();
      if (ended) break;
      buffer += decoder.decode(bytes, { stream: true });
      let nl: number;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (!line) continue;
        const parsed = Chunk.safeParse(JSON.parse(line));
        if (!parsed.success) continue;
        const c = parsed.data;
        if (c.error) {
          yield { type: "error", error: providerError("server_error", `Ollama: ${c.error}`) };
          return;
        }
        const thinking = c.message?.thinking ?? c.message?.reasoning_content;
        if (thinking) yield { type: "reasoning_delta", text: thinking };
        if (c.message?.content) yield { type: "text_delta", text: c.message.content };
        for (const tc of c.message?.tool_calls ?? []) {
          const args =
            typeof tc.function.arguments === "string"
              ? safeParse(tc.function.arguments)
              : { ok: true as const, value: tc.function.arguments };
          const id = `ollama_call_${++calls}`;
          yield args.ok
            ? { type: "tool_call", id, name: tc.function.name, arguments: args.value }
            : {
                type: "tool_call",
                id,
                name: tc.function.name,
                arguments: tc.function.arguments,
                argumentsError: "The tool arguments are not valid JSON.",
              };
        }
        if (c.done) {
          done = true;
          yield {
            type: "usage",
            inputTokens: c.prompt_eval_count ?? 0,
            outputTokens: c.eval_count ?? 0,
          };
          yield {
            type: "finish",
            reason: calls > 0 ? "tool_calls" : c.done_reason === "length" ? "length" : "stop",
          };
        }
      }
    }
  } catch (err) {
    yield {
      type: "error",
      error: isAbort(err, request.signal) ? abortedError() : networkError(err),
    };
    return;
  }
  if (!done)
    yield {
      type: "error",
      error: request.signal?.aborted
        ? abortedError()
        : providerError(
            "network",
            "The connection to Ollama closed before the answer was complete.",
          ),
    };
}

function safeParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
