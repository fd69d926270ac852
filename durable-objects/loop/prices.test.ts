import { describe, expect, it } from "vitest";
import { DEFAULT_MODELS, MODELS } from "../providers/registry";
import { cheapModel } from "./cheap-models";
import { BUILT_IN_PRICES, costOf, priceOf, priceTable } from "./prices";

describe("model prices", () => {
  it("prices a dated snapshot like its model, but not a different model that shares a prefix", () => {
    expect(priceOf(BUILT_IN_PRICES, "claude-sonnet-4-20250514")).toEqual(
      BUILT_IN_PRICES["claude-sonnet-4"],
    );
    expect(priceOf(BUILT_IN_PRICES, "gpt-4o-2024-08-06")).toEqual(BUILT_IN_PRICES["gpt-4o"]);
    expect(priceOf(BUILT_IN_PRICES, "gpt-4o-mini")).toEqual(BUILT_IN_PRICES["gpt-4o-mini"]);
    expect(priceOf(BUILT_IN_PRICES, "gpt-5-pro")).toBeNull();
    expect(priceOf(BUILT_IN_PRICES, "llama3.2")).toBeNull();
  });

  it("charges cached input at its own price and leaves an unpriced model's cost unknown", () => {
    const price = { input: 3, output: 15, cachedInput: 0.3 };
    const tokens = { inputTokens: 10_000, outputTokens: 1_000, cachedTokens: 8_000 };
    // 2000 × 3 + 8000 × 0.3 + 1000 × 15 = 23 400 millionths of a dollar.
    expect(costOf(price, tokens)).toBeCloseTo(0.0234, 10);
    expect(costOf(null, tokens)).toBeNull();
  });

  it("lays the operator's prices over the built-in ones and refuses a malformed table whole", () => {
    const { table, error } = priceTable(
      '{"llama3.2": {"input": 0, "output": 0}, "gpt-4o": {"input": 1, "output": 2}}',
    );
    expect(error).toBeUndefined();
    expect(priceOf(table, "llama3.2")).toEqual({ input: 0, output: 0 });
    expect(priceOf(table, "gpt-4o")).toEqual({ input: 1, output: 2 });
    expect(priceOf(table, "claude-sonnet-4")).toEqual(BUILT_IN_PRICES["claude-sonnet-4"]);

    const typo = priceTable('{"llama3.2": {"input": "free"}}');
    expect(typo.table).toBe(BUILT_IN_PRICES);
    expect(typo.error).toMatch(/MODEL_PRICES is ignored/);
    expect(priceTable("{not json").error).toMatch(/not valid JSON/);
  });
});

describe("the model picker's prices", () => {
  it("prices every model the picker offers, so cost budgets apply to them", () => {
    const unpriced = (["anthropic", "openai", "gemini"] as const).flatMap((provider) =>
      MODELS[provider].filter((m) => priceOf(BUILT_IN_PRICES, m) === null),
    );
    expect(unpriced).toEqual([]);
    for (const provider of ["anthropic", "openai", "gemini"] as const) {
      const model = DEFAULT_MODELS[provider];
      expect(priceOf(BUILT_IN_PRICES, model), model).not.toBeNull();
      expect(priceOf(BUILT_IN_PRICES, cheapModel(provider, model)), provider).not.toBeNull();
    }
    // The default and cheap (title, summary) Anthropic model among them.
    expect(
      costOf(priceOf(BUILT_IN_PRICES, "claude-haiku-4-5"), {
        inputTokens: 1_000_000,
        outputTokens: 1_000_000,
        cachedTokens: 0,
      }),
    ).toBe(6);
  });
});
