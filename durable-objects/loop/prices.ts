// What a model call costs: a price table per model (USD per million tokens), which the operator
// can extend or override with MODEL_PRICES. A model in neither has no price: its cost is
// unknown (null), never zero.
import { z } from "zod";

/**
 * When each vendor's built-in figures were last compared with its published price page. Prices
 * change: check them again (and these dates) before relying on the totals for billing.
 */
export const PRICES_CHECKED_ON = {
  anthropic: "2026-11-29",
  openai: "2025-08-15",
  google: "2025-08-15",
} as const;

export const ModelPrice = z
  .object({
    /** Input tokens not read from the prompt cache. */
    input: z.number().min(0),
    output: z.number().min(0),
    /** Input tokens read from the prompt cache (the input price when absent). */
    cachedInput: z.number().min(0).optional(),
  })
  .strict();
export type ModelPrice = z.infer<typeof ModelPrice>;

export type PriceTable = Readonly<Record<string, ModelPrice>>;

/** Standard (not batch, not long-context) prices, USD per million tokens. */
export const BUILT_IN_PRICES: PriceTable = {
  // Anthropic (cachedInput: the price of a cache hit)
  "claude-opus-5-5": { input: 4, output: 20, cachedInput: 0.2 },
  "claude-sonnet-5-5": { input: 2, output: 10, cachedInput: 0.2 },
  "claude-opus-5": { input: 5, output: 25, cachedInput: 0.5 },
  "claude-opus-4-6": { input: 5, output: 25, cachedInput: 0.5 },
  "claude-opus-4-5": { input: 5, output: 25, cachedInput: 0.5 },
  "claude-sonnet-4-6": { input: 3, output: 15, cachedInput: 0.3 },
  "claude-sonnet-4-5": { input: 3, output: 15, cachedInput: 0.3 },
  "claude-haiku-4-5": { input: 1, output: 5, cachedInput: 0.1 },
  "claude-opus-4-1": { input: 15, output: 75, cachedInput: 1.5 },
  "claude-opus-4": { input: 15, output: 75, cachedInput: 1.5 },
  "claude-sonnet-4": { input: 3, output: 15, cachedInput: 0.3 },
  "claude-3-7-sonnet": { input: 3, output: 15, cachedInput: 0.3 },
  "claude-3-5-sonnet": { input: 3, output: 15, cachedInput: 0.3 },
  "claude-3-5-haiku": { input: 0.8, output: 4, cachedInput: 0.08 },
  // OpenAI (prompts up to 272k tokens; OpenAI bills longer ones at a higher rate). The GPT-6
  // figures are OpenAI's launch prices as LiteLLM's price map and release notes report them.
  "gpt-6.1-sol": { input: 2, output: 10, cachedInput: 0.1 },
  "gpt-6.1-terra": { input: 1, output: 5, cachedInput: 0.05 },
  "gpt-6-sol": { input: 2, output: 10, cachedInput: 0.2 },
  "gpt-6-luna": { input: 0.1, output: 0.5, cachedInput: 0.01 },
  "gpt-5": { input: 1.25, output: 10, cachedInput: 0.125 },
  "gpt-5-mini": { input: 0.25, output: 2, cachedInput: 0.025 },
  "gpt-5-nano": { input: 0.05, output: 0.4, cachedInput: 0.005 },
  "gpt-4.1": { input: 2, output: 8, cachedInput: 0.5 },
  "gpt-4.1-mini": { input: 0.4, output: 1.6, cachedInput: 0.1 },
  "gpt-4.1-nano": { input: 0.1, output: 0.4, cachedInput: 0.025 },
  "gpt-4o": { input: 2.5, output: 10, cachedInput: 1.25 },
  "gpt-4o-mini": { input: 0.15, output: 0.6, cachedInput: 0.075 },
  o3: { input: 2, output: 8, cachedInput: 0.5 },
  "o4-mini": { input: 1.1, output: 4.4, cachedInput: 0.275 },
  // Google (prompts up to 200k tokens). Gemini 3.5 Flash and 3.1 Flash-Lite from Google's price
  // page as reports of it give them; no cached price is on record for 3.1 Flash-Lite, so its
  // cached input is counted at the input price (an overestimate, never an underestimate).
  "gemini-3.5-flash": { input: 1.5, output: 9, cachedInput: 0.15 },
  "gemini-3.1-flash-lite": { input: 0.25, output: 1.5 },
  "gemini-2.5-pro": { input: 1.25, output: 10, cachedInput: 0.31 },
  "gemini-2.5-flash": { input: 0.3, output: 2.5, cachedInput: 0.075 },
  "gemini-2.5-flash-lite": { input: 0.1, output: 0.4, cachedInput: 0.025 },
  "gemini-2.0-flash": { input: 0.1, output: 0.4, cachedInput: 0.025 },
};

const PriceOverrides = z.record(z.string().min(1).max(200), ModelPrice);

/** A dated snapshot (`claude-sonnet-4-20250514`, `gpt-4o-2024-08-06`) or `-latest` alias. */
const VERSION_SUFFIX = /^-(\d{8}|\d{4}-\d{2}-\d{2}|latest)$/;

/**
 * The built-in table with the operator's MODEL_PRICES (JSON: model → price) laid over it. A
 * malformed value is refused as a whole with a message saying what is wrong, so a typo never
 * prices a model at zero.
 */
export function priceTable(configured: string | undefined): { table: PriceTable; error?: string } {
  if (!configured?.trim()) return { table: BUILT_IN_PRICES };
  let json: unknown;
  try {
    json = JSON.parse(configured);
  } catch {
    return { table: BUILT_IN_PRICES, error: "MODEL_PRICES is not valid JSON; it is ignored." };
  }
  const parsed = PriceOverrides.safeParse(json);
  if (!parsed.success)
    return {
      table: BUILT_IN_PRICES,
      error: `MODEL_PRICES is ignored: ${z.prettifyError(parsed.error)}`,
    };
  return { table: { ...BUILT_IN_PRICES, ...parsed.data } };
}

/** The price of `model`: its own entry, or the entry its dated snapshot name builds on. */
export function priceOf(table: PriceTable, model: string): ModelPrice | null {
  const exact = table[model];
  if (exact) return exact;
  for (const [name, price] of Object.entries(table))
    if (model.startsWith(name) && VERSION_SUFFIX.test(model.slice(name.length))) return price;
  return null;
}

export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
}

/** USD for one call; null when the model has no price. */
export function costOf(price: ModelPrice | null, tokens: TokenCounts): number | null {
  if (!price) return null;
  const cached = Math.min(tokens.cachedTokens, tokens.inputTokens);
  const micro =
    (tokens.inputTokens - cached) * price.input +
    cached * (price.cachedInput ?? price.input) +
    tokens.outputTokens * price.output;
  return micro / 1_000_000;
}
