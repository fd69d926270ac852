// The provider-neutral interface the thinking loop talks to. Adapters (one per provider) map
// this to each provider's wire format; nothing here knows about storage, MCP or the DO.

export type ProviderId = "anthropic" | "openai" | "gemini" | "ollama";

export type NeutralPart =
  | { type: "text"; text: string }
  | { type: "image"; mediaType: string; data: string /* base64 */ }
  | { type: "reasoning"; text: string; signature?: string }
  | { type: "tool_call"; id: string; name: string; arguments: unknown }
  | {
      type: "tool_result";
      callId: string;
      name: string;
      content: Array<
        { type: "text"; text: string } | { type: "image"; mediaType: string; data: string }
      >;
      isError?: boolean;
    };

export interface NeutralMessage {
  role: "user" | "assistant" | "tool";
  content: NeutralPart[];
}

export interface ToolDefinition {
  /** Provider-safe name (`^[a-zA-Z0-9_-]{1,64}$`). */
  name: string;
  description: string;
  /** JSON Schema of the arguments (an object schema). */
  inputSchema: Record<string, unknown>;
}

export type ToolChoice = "auto" | "none" | "required" | { name: string };

export interface ModelRequest {
  model: string;
  system?: string;
  messages: NeutralMessage[];
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  temperature?: number;
  maxTokens?: number;
  signal?: AbortSignal;
  /** Escape hatch: passed to the provider as-is (for example Ollama's `num_ctx`, `think`). */
  providerOptions?: Record<string, unknown>;
}

export type FinishReason = "stop" | "tool_calls" | "length" | "content_filter" | "error";

export type ProviderErrorCode =
  | "authentication"
  | "rate_limit"
  | "overloaded"
  | "server_error"
  | "context_too_long"
  | "bad_request"
  | "network"
  | "aborted"
  | "invalid_tool_arguments"
  | "not_configured"
  | "unknown";

export interface ProviderErrorInfo {
  code: ProviderErrorCode;
  message: string;
  retryable: boolean;
  /** Milliseconds the provider asked us to wait, when it said. */
  retryAfterMs?: number;
  status?: number;
}

export type StreamEvent =
  | { type: "text_delta"; text: string }
  | { type: "reasoning_delta"; text: string }
  | {
      type: "tool_call";
      id: string;
      name: string;
      arguments: unknown;
      /** Set when the model's arguments were not valid JSON: the loop tells the model so. */
      argumentsError?: string;
    }
  | { type: "usage"; inputTokens: number; outputTokens: number; cachedTokens?: number }
  | { type: "finish"; reason: FinishReason }
  | { type: "error"; error: ProviderErrorInfo };

export interface ModelProvider {
  readonly id: ProviderId;
  /** Streams one model call. Failures arrive as `error` events, never as thrown exceptions. */
  stream(request: ModelRequest): AsyncIterable<StreamEvent>;
}

export interface ProviderConfig {
  apiKey?: string;
  baseURL?: string;
  headers?: Record<string, string>;
  fetch?: typeof fetch;
}
