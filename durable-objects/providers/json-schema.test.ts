import { Validator } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { toGeminiSchema } from "./gemini/convert-schema";
import { resolveRefs, toObjectSchema } from "./json-schema";

// Tool schemas as real MCP servers publish them (pydantic- and zod-generated shapes).
const SCHEMAS: Record<string, Record<string, unknown>> = {
  search: {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: {
      query: { type: "string", minLength: 1, description: "Search terms" },
      limit: { type: "integer", minimum: 1, maximum: 100, default: 10 },
      sort: { type: "string", enum: ["relevance", "date"] },
      since: { type: "string", format: "date" },
    },
    required: ["query"],
    additionalProperties: false,
  },
  withDefs: {
    type: "object",
    $defs: {
      Node: {
        type: "object",
        properties: { id: { type: "string" }, label: { type: "string" }, kind: { const: "node" } },
        required: ["id"],
      },
    },
    properties: {
      nodes: { type: "array", items: { $ref: "#/$defs/Node" }, maxItems: 50 },
      root: { $ref: "#/$defs/Node" },
    },
    required: ["nodes"],
  },
  anyOfNullable: {
    type: "object",
    properties: {
      filter: { anyOf: [{ type: "string" }, { type: "null" }] },
      tags: { type: ["array", "null"], items: { type: "string" } },
      nested: {
        type: "object",
        properties: {
          deep: { type: "object", properties: { value: { type: "number", exclusiveMinimum: 0 } } },
        },
      },
    },
  },
  recursive: {
    type: "object",
    definitions: {
      Tree: {
        type: "object",
        properties: {
          name: { type: "string" },
          children: { type: "array", items: { $ref: "#/definitions/Tree" } },
        },
      },
    },
    properties: { tree: { $ref: "#/definitions/Tree" } },
  },
};

const SAMPLES: Record<string, Array<[unknown, boolean]>> = {
  search: [
    [{ query: "brca1" }, true],
    [{ query: "brca1", limit: 5, sort: "date" }, true],
    [{ limit: 5 }, false],
    [{ query: "x", sort: "random" }, false],
    [{ query: 42 }, false],
  ],
  withDefs: [
    [{ nodes: [{ id: "a" }] }, true],
    [{ nodes: [{ label: "no id" }] }, false],
    [{ nodes: [], root: { id: "r" } }, true],
    [{}, false],
  ],
  anyOfNullable: [
    [{ filter: null, tags: ["a"] }, true],
    [{ filter: "x", tags: null }, true],
    [{ tags: [1] }, false],
  ],
  recursive: [
    [{ tree: { name: "a", children: [{ name: "b", children: [] }] } }, true],
    [{ tree: { name: 5 } }, false],
  ],
};

describe("tool schemas for providers", () => {
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    it(`${name}: resolved schema has no $ref and accepts and rejects the same arguments`, () => {
      const resolved = toObjectSchema(schema);
      expect(JSON.stringify(resolved)).not.toContain("$ref");
      expect(JSON.stringify(resolved)).not.toContain("$defs");
      const original = new Validator(schema as never, "2020-12", false);
      const converted = new Validator(resolved as never, "2020-12", false);
      for (const [sample, valid] of SAMPLES[name]!) {
        expect(original.validate(sample).valid, JSON.stringify(sample)).toBe(valid);
        // A cycle is cut to an open object, so deeper levels may accept more; the top levels agree.
        expect(converted.validate(sample).valid, JSON.stringify(sample)).toBe(valid);
      }
    });

    it(`${name}: Gemini subset, with what was dropped reported`, () => {
      expect(toGeminiSchema(schema)).toMatchSnapshot();
    });
  }

  it("unrolls a recursive definition twice, then cuts it to an open object and says so", () => {
    const { schema, dropped } = resolveRefs(SCHEMAS.recursive!);
    const tree = schema.properties as {
      tree: {
        properties: { children: { items: { properties: { children: { items: unknown } } } } };
      };
    };
    expect(tree.tree.properties.children.items.properties.children.items).toEqual({
      type: "object",
    });
    expect(dropped).toEqual([
      expect.objectContaining({ keyword: "$ref", note: expect.stringMatching(/recursive/) }),
    ]);
  });
});
