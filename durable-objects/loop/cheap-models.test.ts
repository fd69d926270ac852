import { describe, expect, it } from "vitest";
import { cheapModel, parseCheapModels } from "./cheap-models";

describe("cheap models over the operator's CHEAP_MODELS", () => {
  it("uses the built-in table when CHEAP_MODELS is unset or empty", () => {
    expect(parseCheapModels(undefined)).toEqual({ overrides: {} });
    expect(parseCheapModels("  ")).toEqual({ overrides: {} });
    expect(cheapModel("anthropic", "claude-opus-4-1")).toBe("claude-haiku-4-5");
    expect(cheapModel("ollama", "llama3.2:latest")).toBe("llama3.2:latest");
  });

  it("replaces the providers it names and keeps the others", () => {
    const { overrides, error } = parseCheapModels(
      '{"anthropic": "claude-3-5-haiku-latest", "ollama": "qwen3:4b"}',
    );
    expect(error).toBeUndefined();
    expect(cheapModel("anthropic", "claude-opus-4-1", overrides)).toBe("claude-3-5-haiku-latest");
    expect(cheapModel("ollama", "llama3.2:latest", overrides)).toBe("qwen3:4b");
    expect(cheapModel("openai", "gpt-6.1-sol", overrides)).toBe("gpt-6-luna");
  });

  it("ignores a value that is not JSON, or names an unknown provider, and says how to fix it", () => {
    const notJson = parseCheapModels("anthropic=claude-haiku-4-5");
    expect(notJson.overrides).toEqual({});
    expect(notJson.error).toMatch(/CHEAP_MODELS is not JSON/);
    const unknown = parseCheapModels('{"mistral": "small"}');
    expect(unknown.overrides).toEqual({});
    expect(unknown.error).toMatch(/CHEAP_MODELS is ignored .*\{"anthropic": "claude-haiku-4-5"\}/);
    const empty = parseCheapModels('{"openai": ""}');
    expect(empty.overrides).toEqual({});
    expect(empty.error).toMatch(/openai/);
  });
});
