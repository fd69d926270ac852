// A neutral request → the /api/chat body. /api/chat takes `think`, `keep_alive` and `format` at
// the top and every model parameter in `options`, so providerOptions are sorted that way:
// `num_ctx` (the context window, which Ollama otherwise keeps small: unset, the window the
// history was fitted to, `contextTokens`), `seed`, `top_k`, … go
// into `options`, beside the request's temperature and max tokens (`num_predict`). A reasoning
// effort turns `think` on: as the effort for gpt-oss, which takes levels, as `true` for the others.
import { isObject } from "../json-schema";
import type { ModelRequest } from "../types";
import { type OllamaMessage, toOllamaMessages } from "./convert-messages";
import { type OllamaTool, prepareOllamaTools } from "./prepare-tools";

const TOP_LEVEL = new Set(["think", "keep_alive", "format"]);

export interface OllamaChatRequest {
  model: string;
  messages: OllamaMessage[];
  stream: true;
  tools?: OllamaTool[];
  think?: boolean | "low" | "medium" | "high";
  keep_alive?: string | number;
  format?: unknown;
  options?: Record<string, unknown>;
}

export function toOllamaRequest(request: ModelRequest): OllamaChatRequest {
  const { options: extra, ...rest } = request.providerOptions ?? {};
  const top: Record<string, unknown> = {};
  const options: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) (TOP_LEVEL.has(k) ? top : options)[k] = v;
  Object.assign(
    options,
    // The window the history was fitted to, unless the operator set one.
    request.contextTokens !== undefined && { num_ctx: request.contextTokens },
    isObject(extra) ? extra : {},
    {
      ...(request.temperature !== undefined && { temperature: request.temperature }),
      ...(request.maxTokens !== undefined && { num_predict: request.maxTokens }),
    },
  );
  if (rest.num_ctx !== undefined) options.num_ctx = rest.num_ctx;
  const effort = request.reasoningEffort;
  return {
    ...(effort && { think: /gpt-oss/.test(request.model) ? effort : true }),
    ...top,
    model: request.model,
    messages: toOllamaMessages(request.system, request.messages),
    stream: true,
    ...prepareOllamaTools(request.tools, request.toolChoice),
    ...(Object.keys(options).length > 0 && { options }),
  };
}
