// JSON Schema → the OpenAPI subset Gemini's function declarations accept. Unsupported keywords
// are rewritten where an equivalent exists (const → enum, type arrays → anyOf/nullable) and
// dropped otherwise; every dropped keyword is reported so the loss is visible.
import { toObjectSchema } from "../json-schema";

type Json = Record<string, unknown>;

const KEEP = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "maxItems",
  "minItems",
  "properties",
  "required",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "example",
  "anyOf",
  "propertyOrdering",
  "default",
  "items",
  "minimum",
  "maximum",
]);
// Gemini accepts only these string formats.
const FORMATS = new Set(["enum", "date-time"]);

export interface GeminiSchema {
  schema: Json;
  dropped: string[];
}

export function toGeminiSchema(input: Json | undefined): GeminiSchema {
  const dropped = new Set<string>();
  const walk = (node: unknown, path: string): unknown => {
    if (!node || typeof node !== "object" || Array.isArray(node)) return node;
    const src = { ...(node as Json) };
    if ("const" in src && !("enum" in src)) {
      src.enum = [src.const];
      delete src.const;
    }
    if (Array.isArray(src.type)) {
      const types = (src.type as string[]).filter((t) => t !== "null");
      if (types.length < (src.type as string[]).length) src.nullable = true;
      if (types.length === 1) src.type = types[0];
      else {
        delete src.type;
        src.anyOf = types.map((t) => ({ type: t }));
      }
    }
    if (Array.isArray(src.oneOf) && !src.anyOf) {
      src.anyOf = src.oneOf;
      delete src.oneOf;
    }
    if (Array.isArray(src.anyOf)) {
      // Gemini has no "null" type: a null branch becomes `nullable`, a single branch is inlined.
      const branches = (src.anyOf as Json[]).filter(
        (b) => !(b && b.type === "null" && Object.keys(b).length === 1),
      );
      if (branches.length < (src.anyOf as Json[]).length) src.nullable = true;
      if (branches.length === 1) {
        delete src.anyOf;
        Object.assign(src, branches[0]);
      } else src.anyOf = branches;
    }
    if (Array.isArray(src.enum)) src.enum = (src.enum as unknown[]).map(String);
    const out: Json = {};
    for (const [k, v] of Object.entries(src)) {
      if (!KEEP.has(k)) {
        dropped.add(`${path || "/"}:${k}`);
        continue;
      }
      if (k === "format" && typeof v === "string" && !FORMATS.has(v)) {
        dropped.add(`${path || "/"}:format(${v})`);
        continue;
      }
      if (k === "properties" && v && typeof v === "object") {
        out.properties = Object.fromEntries(
          Object.entries(v as Json).map(([name, s]) => [name, walk(s, `${path}/${name}`)]),
        );
      } else if (k === "items") out.items = walk(v, `${path}/items`);
      else if (k === "anyOf" && Array.isArray(v))
        out.anyOf = v.map((s, i) => walk(s, `${path}/anyOf/${i}`));
      else out[k] = v;
    }
    if (Array.isArray(out.enum) && !out.type) out.type = "string";
    if (out.enum && out.type === "string") out.format = "enum";
    return out;
  };
  const schema = walk(toObjectSchema(input), "") as Json;
  return { schema, dropped: [...dropped].sort() };
}
