import { describe, expect, it } from "vitest";
import { checkFormatterOutput } from "./formatter";

describe("response_formatter validation", () => {
  it("accepts text and artifact items", () => {
    const r = checkFormatterOutput({
      thinking: "short",
      conversation: [
        { type: "text", content: "Here it is" },
        {
          type: "artifact",
          content: "code",
          artifact: { type: "code", title: "Hello", content: "print(1)", language: "python" },
        },
      ],
    });
    expect(r.ok).toBe(true);
  });

  it("accepts a conversation sent as a JSON string", () => {
    const r = checkFormatterOutput({
      conversation: JSON.stringify([{ type: "text", content: "hi" }]),
    });
    expect(r).toMatchObject({
      ok: true,
      value: { conversation: [{ type: "text", content: "hi" }] },
    });
  });

  const bad: Array<[string, unknown, RegExp]> = [
    ["empty array", { conversation: [] }, /at least one item/],
    ["a plain string", { conversation: "hello" }, /conversation/],
    ["missing type", { conversation: [{ content: "x" }] }, /conversation\.0\.type/],
    [
      "artifact without its object",
      { conversation: [{ type: "artifact" }] },
      /conversation\.0\.artifact/,
    ],
    [
      "artifact without a title",
      { conversation: [{ type: "artifact", artifact: { type: "code", content: "x" } }] },
      /artifact\.title/,
    ],
    ["empty text", { conversation: [{ type: "text", content: "" }] }, /non-empty content/],
  ];
  for (const [name, args, pattern] of bad) {
    it(`refuses ${name} with an error the model can act on`, () => {
      const r = checkFormatterOutput(args);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.errors).toMatch(pattern);
        expect(r.errors).toContain("Call response_formatter again");
      }
    });
  }
});
