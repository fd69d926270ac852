// What the user is told when a model refuses something a turn asked of it, and what the
// conversation remembers of it: once per refusal and model, and native tools not asked again.
import { describe, expect, it } from "vitest";
import type { NewServerEvent } from "../protocol/wire";
import { noteRefusal, refusalNotice, refusedNativeTools } from "./provider-refusals";

function meta() {
  const values = new Map<string, string>();
  return {
    getMeta: (key: string) => values.get(key) ?? null,
    setMeta: (key: string, value: string) => void values.set(key, value),
  };
}

const tools = {
  what: "native tools",
  model: "llava:13b",
  message: 'Ollama refused the request (HTTP 400): "llava:13b" does not support tools',
};

describe("a model's refusal", () => {
  it("is told once per conversation and model, and native tools are remembered", () => {
    const store = meta();
    const told: NewServerEvent[] = [];
    expect(refusedNativeTools(store, "llava:13b")).toBe(false);
    noteRefusal(store, tools, (e) => told.push(e));
    noteRefusal(store, tools, (e) => told.push(e));
    expect(told).toEqual([
      {
        type: "notice",
        level: "warning",
        message: expect.stringMatching(
          /^llava:13b refused native tool calls \(“Ollama refused .*does not support tools”\), so from now on its tools are described in its system prompt/,
        ),
      },
    ]);
    expect(refusedNativeTools(store, "llava:13b")).toBe(true);
    expect(refusedNativeTools(store, "qwen3:8b")).toBe(false);

    // Another model's refusal is its own.
    noteRefusal(store, { ...tools, model: "phi4" }, (e) => told.push(e));
    expect(told).toHaveLength(2);
    expect(refusedNativeTools(store, "phi4")).toBe(true);
  });

  it("says what images and a reasoning effort refused mean, and nothing for the rest", () => {
    expect(refusalNotice({ what: "images", model: "m", message: "no images" })).toMatch(
      /^m cannot see images \(“no images”\): each image is named in text instead/,
    );
    expect(refusalNotice({ what: "reasoning effort", model: "m", message: "no think" })).toMatch(
      /reasoning effort has no effect on this model/,
    );
    const store = meta();
    const told: NewServerEvent[] = [];
    noteRefusal(store, { what: "forced tool call", model: "m", message: "x" }, (e) => told.push(e));
    expect(told).toEqual([]);
    expect(refusedNativeTools(store, "m")).toBe(false);
  });

  it("reads a damaged list as empty rather than failing the turn", () => {
    const store = meta();
    store.setMeta("models_without_native_tools", "{not json");
    expect(refusedNativeTools(store, "llava:13b")).toBe(false);
    noteRefusal(store, tools, () => undefined);
    expect(refusedNativeTools(store, "llava:13b")).toBe(true);
  });
});
