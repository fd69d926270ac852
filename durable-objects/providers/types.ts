// The provider-neutral interface the thinking loop talks to. Adapters (one per provider) map
// this to each provider's wire format; nothing here knows about storage, MCP or the DO.

export type ProviderId = "anthropic" | "openai" | "gemini" | "ollama";

export type NeutralPart =
  | { type: "text"; text: string }
  | { type: "image"; mediaType: string; data: string /* base64 */ }
  | { type: "reasoning"; text: string }
  | {
      type: "tool_call";
      id: string;
      name: string;
      arguments: unknown;
      /** Gemini's thought signature for this call; send it back with the call when present. */
      signature?: string;
    }
  | {
      type: "tool_result";
      callId: string;
      name: string;
      content: Array<
        { type: "text"; text: string } | { type: "image"; mediaType: string; data: string }
      >;
      isError?: boolean;
    }
  /**
   * A PDF the user attached, for the providers that read PDFs themselves (Anthropic, Gemini, and
   * OpenAI through its Responses API).
   */
  | { type: "document"; mediaType: "application/pdf"; data: string /* base64 */; name: string }
  /** An OpenAI reasoning model's reasoning, sealed (see EncryptedReasoning). */
  | ({ type: "encrypted_reasoning" } & EncryptedReasoning)
  /** A Claude thinking block, as Claude wrote it (see SignedThinking). */
  | ({ type: "signed_thinking" } & SignedThinking);

/** The reasoning a step keeps to send back with its calls: only the model that wrote it reads it. */
export type SealedReasoning = Extract<
  NeutralPart,
  { type: "encrypted_reasoning" | "signed_thinking" }
>;

/**
 * The reasoning an OpenAI reasoning model did before its calls, encrypted by OpenAI (which keeps
 * nothing: requests are `store: false`). Sent back with the calls for the model's next step of
 * the same turn, it continues from that reasoning instead of starting afresh; only the model that
 * wrote it can read it, so every other model and provider leaves it out.
 */
export interface EncryptedReasoning {
  /** The model that wrote it. */
  model: string;
  /** OpenAI's id of the reasoning item (`rs_…`). */
  id: string;
  /** OpenAI's `encrypted_content`. */
  data: string;
}

/**
 * A Claude thinking block as Claude wrote it: its text (empty where the model leaves the text out)
 * and signature, or a redacted block's sealed data. While a turn's tool loop lasts, Anthropic
 * requires the blocks back, unchanged and ahead of the calls they led to; another model or
 * provider cannot read them, so only the model that wrote them is sent them.
 */
export type SignedThinking =
  { model: string; thinking: string; signature: string } | { model: string; redacted: string };

/** How hard a reasoning model thinks before it answers (unset: the model's own default). */
export type ReasoningEffort = "low" | "medium" | "high";

export interface NeutralMessage {
  role: "user" | "assistant" | "tool";
  content: NeutralPart[];
}

export interface ToolDefinition {
  /** Provider-safe name (`^[a-zA-Z0-9_-]{1,64}$`), see tool-names.ts. */
  name: string;
  description: string;
  /** JSON Schema of the arguments (an object schema); adapters convert it per provider. */
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
  /** How hard a reasoning model thinks; each adapter maps it for its model, or leaves it out. */
  reasoningEffort?: ReasoningEffort;
  /**
   * The context window the history was fitted to. Ollama is asked to run with it (`num_ctx`):
   * otherwise it keeps its own small default and silently drops what does not fit. The cloud
   * providers know their models' windows and ignore it.
   */
  contextTokens?: number;
  signal?: AbortSignal;
  /**
   * Escape hatch, read by the adapter of the provider in use: Ollama `num_ctx`, `think`,
   * `keep_alive`; Anthropic `thinking`; Gemini `thinkingConfig`; anything else is passed to the
   * provider's request body as-is.
   */
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
  /** A sentence a person can act on (which setting to check, what the provider said). */
  message: string;
  /** Whether the same request may succeed if sent again (see retry.ts). */
  retryable: boolean;
  /** Milliseconds the provider asked us to wait, when it said. */
  retryAfterMs?: number;
  /** HTTP status, when the error came with one (absent for errors inside a stream). */
  status?: number;
  /** Cancelled before the request went out (while waiting to retry): the provider read nothing. */
  unsent?: true;
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
      /** Gemini's thought signature: keep it on the tool_call part of the history. */
      signature?: string;
    }
  | {
      type: "usage";
      /** All input tokens of the call, cached ones included. */
      inputTokens: number;
      /** Output tokens, reasoning included. */
      outputTokens: number;
      /** The part of `inputTokens` read from the provider's prompt cache. */
      cachedTokens?: number;
      /** The part of `outputTokens` spent on reasoning, where the provider reports it. */
      reasoningTokens?: number;
      /** Set by routing when a fallback served the call: the usage is that model's. */
      servedBy?: { provider: ProviderId; model: string };
      /**
       * The call ended before the provider's final count (cancelled, cut off, failed): these are
       * its figures as far as the provider gave them (Anthropic's input at the start, say), and
       * the output may be short of what streamed. Sent just before the call's `error`.
       */
      cut?: true;
    }
  /**
   * Reasoning to send back with this step's calls (OpenAI's reasoning models, Claude's thinking),
   * handed out only with a call that completed.
   */
  | SealedReasoning
  | {
      type: "finish";
      reason: FinishReason;
      /** What the provider said of why it stopped (Anthropic's explanation of a refusal). */
      detail?: string;
    }
  | { type: "error"; error: ProviderErrorInfo };

export interface ModelProvider {
  readonly id: ProviderId;
  /**
   * Streams one model call. Failures arrive as one `error` event, never as thrown exceptions;
   * a call that succeeds ends with `usage` (when the provider reports it) and then `finish`; one
   * that fails after the provider reported figures sends them (`usage` with `cut`) before its
   * `error`, so tokens already spent are counted.
   */
  stream(request: ModelRequest): AsyncIterable<StreamEvent>;
}

/** A provider refused something a request asked for, and the call was asked again without it. */
export interface AskedAgain {
  /** What was left out: "native tools", "images", "reasoning effort", … (ask-again.ts). */
  what: string;
  model: string;
  /** The provider's refusal, as its error message gives it. */
  message: string;
}

export interface ProviderConfig {
  /**
   * Told when a request was refused for something it asked for and asked again without it, so
   * the conversation can tell the user and remember it (Ollama's refusals).
   */
  onAskedAgain?: (refusal: AskedAgain) => void;
  apiKey?: string;
  baseURL?: string;
  headers?: Record<string, string>;
  fetch?: typeof fetch;
  /**
   * Which of OpenAI's APIs to call (`responses` or `chat-completions`); unset, OpenAI's own base
   * URL gets the Responses API and any other the chat completions that compatible servers speak.
   */
  openaiApi?: string;
  /**
   * `auto`, `concise` or `detailed`: OpenAI's reasoning models are asked (Responses API) for a
   * summary of their reasoning, shown like other models' reasoning. OpenAI gives it only to
   * verified organisations; unset, none is asked for.
   */
  openaiReasoningSummary?: string;
}
