import { describe, expect, it } from "vitest";
import { checkToolArguments } from "./argument-check";

const weather = {
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  properties: {
    city: { type: "string" },
    days: { type: "integer", minimum: 1 },
    metric: { type: "boolean" },
    tags: { type: "array", items: { type: "string" } },
    ids: { type: "array", items: { type: "number" } },
  },
  required: ["city"],
  additionalProperties: false,
};

describe("tool arguments against the tool's schema", () => {
  it("makes the safe coercions: numbers and booleans given as strings, one value for a list", () => {
    expect(
      checkToolArguments(weather, {
        city: "Paris",
        days: " 3 ",
        metric: "true",
        tags: "rain",
        ids: ["1", 2],
      }),
    ).toEqual({
      ok: true,
      value: { city: "Paris", days: 3, metric: true, tags: ["rain"], ids: [1, 2] },
    });
  });

  it("leaves what is not safe to coerce, and says exactly where and what is wrong", () => {
    const check = checkToolArguments(weather, { days: "2.5", town: "Lyon" });
    expect(check.ok).toBe(false);
    const errors = check.ok ? "" : check.errors;
    expect(errors).toContain('Instance does not have required property "city"');
    expect(errors).toMatch(/^days: .*"integer"/m);
    expect(errors).toContain("town: the tool takes no such argument.");
  });

  it("does not turn a string into a number where the schema takes a string too", () => {
    const schema = { type: "object", properties: { id: { type: ["string", "number"] } } };
    expect(checkToolArguments(schema, { id: "007" })).toEqual({ ok: true, value: { id: "007" } });
  });

  it("passes arguments through when the schema is one the validator cannot read", () => {
    const schema = { type: "object", properties: { x: { $ref: "#/nowhere" } } };
    expect(checkToolArguments(schema, { x: 1 })).toEqual({ ok: true, value: { x: 1 } });
  });
});
