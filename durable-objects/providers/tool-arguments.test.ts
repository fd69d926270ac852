import { describe, expect, it } from "vitest";
import { parseToolArguments, toolCallEvent } from "./tool-arguments";

// Every adapter builds its tool_call events through toolCallEvent; aimock replays broken JSON on
// OpenAI's wire only (see the conformance suite), so the repair itself is checked here too.
describe("tool-call arguments", () => {
  it.each([
    ["single quotes and unquoted keys", "{city: 'Paris'}", { city: "Paris" }],
    ["a trailing comma", '{"city": "Paris", "days": [1, 2,],}', { city: "Paris", days: [1, 2] }],
    [
      "a missing closing brace",
      '{"city": "Paris", "units": "celsius"',
      { city: "Paris", units: "celsius" },
    ],
    ["a fenced block", '```json\n{"city": "Paris"}\n```', { city: "Paris" }],
  ])("repairs %s", (_, text, value) => {
    expect(parseToolArguments(text)).toEqual({ ok: true, value });
  });

  it("keeps a clear error when nothing can be repaired into an object", () => {
    expect(parseToolArguments('"just a string"')).toEqual({
      ok: false,
      message: "The tool arguments must be a JSON object.",
    });
    const event = toolCallEvent("c1", "get_weather", "[1, 2]");
    expect(event.argumentsError).toBe("The tool arguments must be a JSON object.");
  });
});
