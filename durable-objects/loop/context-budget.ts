// How much of a model's context window the history may fill: a table of known windows, cheap
// token estimates (characters / 4, corrected by what the provider reported for earlier calls),
// and the budget left once the system prompt, the tools and the answer's reserve are counted.
import type { NeutralMessage, NeutralPart, ProviderId } from "../providers/types";

export interface ModelWindow {
  /** Tokens the model accepts in one call, input and output together. */
  contextTokens: number;
  /** Tokens kept free for the answer when the conversation sets no `maxTokens`. */
  outputReserve: number;
}

/** Known windows; a model not listed gets its provider's default (the first match wins). */
const WINDOWS: Array<{ provider: ProviderId; model: RegExp; window: ModelWindow }> = [
  {
    provider: "anthropic",
    model: /^claude-[a-z]+-5/,
    window: { contextTokens: 1_000_000, outputReserve: 8_192 },
  },
  { provider: "anthropic", model: /./, window: { contextTokens: 200_000, outputReserve: 8_192 } },
  {
    provider: "openai",
    model: /^gpt-4\.1/,
    window: { contextTokens: 1_047_576, outputReserve: 32_768 },
  },
  {
    provider: "openai",
    model: /^gpt-6/,
    window: { contextTokens: 1_050_000, outputReserve: 32_768 },
  },
  {
    provider: "openai",
    model: /^gpt-5/,
    window: { contextTokens: 400_000, outputReserve: 32_768 },
  },
  {
    provider: "openai",
    model: /^(gpt-4o|o\d)/,
    window: { contextTokens: 128_000, outputReserve: 16_384 },
  },
  { provider: "openai", model: /./, window: { contextTokens: 128_000, outputReserve: 8_192 } },
  { provider: "gemini", model: /./, window: { contextTokens: 1_048_576, outputReserve: 65_536 } },
  // Ollama runs what the user pulled with whatever `num_ctx` it has: assume a modest window.
  { provider: "ollama", model: /./, window: { contextTokens: 32_768, outputReserve: 4_096 } },
];

export function modelWindow(
  provider: ProviderId,
  model: string,
  override?: { contextTokens?: number | undefined },
): ModelWindow {
  const known = WINDOWS.find((w) => w.provider === provider && w.model.test(model))?.window ?? {
    contextTokens: 32_768,
    outputReserve: 4_096,
  };
  return override?.contextTokens ? { ...known, contextTokens: override.contextTokens } : known;
}

/** Characters per token before any correction: a fair average for English and code. */
export const DEFAULT_CHARS_PER_TOKEN = 4;
/** An image in a history is counted as this many tokens (providers charge roughly this). */
const IMAGE_TOKENS = 1_000;
/** The least a PDF document part is counted as (one page of text and its image). */
const PDF_MIN_TOKENS = 1_500;
/** Per-message overhead of the wire formats (role markers, separators). */
const MESSAGE_OVERHEAD = 4;

export class TokenEstimator {
  /** Estimates of messages already counted: a long history is measured once, not per step. */
  readonly #chars = new WeakMap<NeutralMessage, number>();

  constructor(readonly charsPerToken = DEFAULT_CHARS_PER_TOKEN) {}

  text(text: string): number {
    return Math.ceil(text.length / this.charsPerToken);
  }

  message(m: NeutralMessage): number {
    let chars = this.#chars.get(m);
    if (chars === undefined) {
      chars = 0;
      for (const p of m.content) chars += partChars(p);
      this.#chars.set(m, chars);
    }
    return Math.ceil(chars / this.charsPerToken) + MESSAGE_OVERHEAD;
  }

  messages(ms: readonly NeutralMessage[]): number {
    let total = 0;
    for (const m of ms) total += this.message(m);
    return total;
  }
}

/** Image parts count as IMAGE_TOKENS whatever the ratio: expressed here in characters at 4/token. */
function partChars(p: NeutralPart): number {
  switch (p.type) {
    case "text":
    case "reasoning":
      return p.text.length;
    case "image":
      return IMAGE_TOKENS * DEFAULT_CHARS_PER_TOKEN;
    // Providers charge a PDF by its pages (text and an image of each, a few thousand tokens):
    // about one token per 20 bytes of a typical PDF (its base64 is 4/3 of its bytes).
    case "document":
      return (
        Math.max(PDF_MIN_TOKENS, Math.ceil((p.data.length * 3) / 4 / 20)) * DEFAULT_CHARS_PER_TOKEN
      );
    case "tool_call":
      return p.name.length + JSON.stringify(p.arguments ?? {}).length;
    // Sealed, so its tokens are unknown: its length overestimates them, which is the safe side.
    case "encrypted_reasoning":
      return p.data.length;
    case "signed_thinking":
      return "redacted" in p ? p.redacted.length : p.thinking.length + p.signature.length;
    case "tool_result": {
      let chars = p.name.length;
      for (const c of p.content)
        chars += c.type === "text" ? c.text.length : IMAGE_TOKENS * DEFAULT_CHARS_PER_TOKEN;
      return chars;
    }
  }
}

/**
 * The characters-per-token ratio learned from a call: what we sent (in characters) over the
 * input tokens the provider counted. It only ever makes estimates stricter than the default
 * (text in many languages, code and JSON take more tokens per character; none take fewer than
 * English often enough to bet the window on it), and never absurdly so.
 */
export function correctedCharsPerToken(sentChars: number, reportedInputTokens: number): number {
  if (reportedInputTokens <= 0 || sentChars <= 0) return DEFAULT_CHARS_PER_TOKEN;
  return Math.min(DEFAULT_CHARS_PER_TOKEN, Math.max(1.5, sentChars / reportedInputTokens));
}

/** Share of the window kept free for estimate errors. */
const SAFETY_SHARE = 0.05;

/**
 * Tokens the history may take: the window minus the answer's reserve, the system prompt, the
 * tool definitions and a safety margin.
 */
export function historyBudget(args: {
  window: ModelWindow;
  maxTokens?: number | undefined;
  systemTokens: number;
  toolTokens: number;
}): number {
  const reserve = args.maxTokens ?? args.window.outputReserve;
  const margin = Math.ceil(args.window.contextTokens * SAFETY_SHARE);
  return Math.max(
    0,
    args.window.contextTokens - reserve - margin - args.systemTokens - args.toolTokens,
  );
}
