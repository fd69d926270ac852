// Checks a call's arguments against the tool's input schema before the call leaves the DO.
// Small models often send a number as "3" or one value where a list is wanted: those safe
// coercions are made quietly. Whatever still fails goes back to the model with the schema's own
// words (where and what), so it can correct itself, and the server is never called with it.
import { Validator, type Schema, type SchemaDraft } from "@cfworker/json-schema";

export type ArgumentCheck =
  { ok: true; value: Record<string, unknown> } | { ok: false; errors: string };

type JsonSchema = Record<string, unknown>;

export function checkToolArguments(
  schema: JsonSchema,
  args: Record<string, unknown>,
): ArgumentCheck {
  const value = coerce(schema, args) as Record<string, unknown>;
  let result;
  try {
    result = new Validator(schema as Schema, draftOf(schema), false).validate(value);
  } catch {
    // A schema the validator cannot read is the server's to judge, not a reason to refuse.
    return { ok: true, value };
  }
  if (result.valid) return { ok: true, value };
  // The leaf errors say what is wrong; the "properties"/"allOf" summaries above them repeat it.
  const leaves = result.errors.filter(
    (e) => !["properties", "items", "allOf", "$ref", "additionalProperties"].includes(e.keyword),
  );
  const lines = (leaves.length > 0 ? leaves : result.errors).map(
    (e) =>
      `${e.instanceLocation === "#" ? "arguments" : e.instanceLocation.replace(/^#\//, "")}: ${
        e.keyword === "false" ? "the tool takes no such argument." : e.error
      }`,
  );
  return { ok: false, errors: [...new Set(lines)].join("\n") };
}

/** The safe coercions: numeric and boolean strings, and a lone value where an array is wanted. */
function coerce(schema: unknown, value: unknown): unknown {
  if (!isObject(schema)) return value;
  const types = typesOf(schema);
  if (typeof value === "string") {
    const text = value.trim();
    if ((types.has("number") || types.has("integer")) && !types.has("string")) {
      const n = Number(text);
      if (text !== "" && Number.isFinite(n) && (types.has("number") || Number.isInteger(n)))
        return n;
    }
    if (types.has("boolean") && !types.has("string") && (text === "true" || text === "false"))
      return text === "true";
  }
  if (types.has("array") && !Array.isArray(value) && value !== undefined && value !== null) {
    if (!fitsOneOf(types, value)) return [coerce(schema.items, value)];
  }
  if (Array.isArray(value) && isObject(schema.items))
    return value.map((item) => coerce(schema.items, item));
  if (isObject(value) && isObject(schema.properties)) {
    const properties = schema.properties;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, coerce(properties[k], v)]));
  }
  return value;
}

function typesOf(schema: JsonSchema): Set<string> {
  const t: unknown = schema.type;
  const list: unknown[] = Array.isArray(t) ? t : [t];
  return new Set(list.filter((x): x is string => typeof x === "string"));
}

function fitsOneOf(types: Set<string>, value: unknown): boolean {
  if (typeof value === "number")
    return types.has("number") || (types.has("integer") && Number.isInteger(value));
  if (isObject(value)) return types.has("object");
  return types.has(typeof value);
}

/** The draft the schema names (MCP servers mostly write draft-07); 2020-12 otherwise. */
function draftOf(schema: JsonSchema): SchemaDraft {
  const named = typeof schema.$schema === "string" ? schema.$schema : "";
  if (named.includes("draft-04")) return "4";
  if (named.includes("draft-07") || named.includes("draft-06")) return "7";
  if (named.includes("2019-09")) return "2019-09";
  return "2020-12";
}

function isObject(v: unknown): v is JsonSchema {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
