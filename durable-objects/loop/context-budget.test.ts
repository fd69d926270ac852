// The window a conversation's history is fitted to: each model's own where the table knows it.
import { expect, it } from "vitest";
import { modelWindow } from "./context-budget";

it("fits Claude 5 and later to their million-token window, and earlier Claude models to 200,000", () => {
  for (const model of ["claude-opus-5-5", "claude-sonnet-5-5", "claude-opus-5"])
    expect(modelWindow("anthropic", model).contextTokens).toBe(1_000_000);
  for (const model of ["claude-sonnet-4-6", "claude-haiku-4-5", "claude-3-7-sonnet-20250219"])
    expect(modelWindow("anthropic", model).contextTokens).toBe(200_000);
  // A window the conversation sets wins.
  expect(modelWindow("anthropic", "claude-opus-5-5", { contextTokens: 50_000 }).contextTokens).toBe(
    50_000,
  );
});
