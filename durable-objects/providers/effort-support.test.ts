import { expect, it } from "vitest";
import { takesReasoningEffort } from "./effort-support";

it("names the models that act on a reasoning effort, and not those that ignore it", () => {
  const takes = (provider: string, models: string[]) =>
    models.filter((m) => takesReasoningEffort(provider, m));
  expect(takes("openai", ["gpt-4.1", "gpt-4o-mini", "gpt-3.5-turbo", "gpt-6-luna", "o3"])).toEqual([
    "gpt-6-luna",
    "o3",
  ]);
  expect(
    takes("anthropic", [
      "claude-3-5-haiku-20241022",
      "claude-3-7-sonnet-20250219",
      "claude-opus-4-6",
    ]),
  ).toEqual(["claude-3-7-sonnet-20250219", "claude-opus-4-6"]);
  expect(takes("gemini", ["gemini-2.0-flash", "gemini-2.5-pro", "gemini-3.5-flash"])).toEqual([
    "gemini-2.5-pro",
    "gemini-3.5-flash",
  ]);
  expect(takes("ollama", ["qwen3:8b"])).toEqual(["qwen3:8b"]);
  expect(takes("unknown", ["x"])).toEqual([]);
});

it("offers no effort for OpenAI models behind a compatible server, which is never sent one", () => {
  expect(takesReasoningEffort("openai", "gpt-6-luna", { compatibleServer: true })).toBe(false);
  expect(takesReasoningEffort("openai", "gpt-6-luna", { compatibleServer: false })).toBe(true);
});
