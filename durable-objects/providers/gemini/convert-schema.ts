// JSON Schema → the OpenAPI subset Gemini's function declarations accept. Gemini answers 400 to
// a declaration with a keyword outside that subset, an object with empty `properties`, a
// `required` name that is not a property, `properties` on a non-object, an array without
// `items`, or an `enum` on a non-string; @google/genai itself throws on `type` beside `anyOf`.
// Keywords are rewritten where an equivalent exists (const → enum, type arrays and null branches
// → anyOf/nullable, allOf → one merged schema) and dropped otherwise; every loss is reported.
import { isObject, type Json, mergeSchemas, toolInputSchema } from "../json-schema";

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
// The formats Gemini accepts, per type.
const FORMATS: Record<string, ReadonlySet<string>> = {
  string: new Set(["enum", "date-time"]),
  integer: new Set(["int32", "int64"]),
  number: new Set(["float", "double"]),
};
const OBJECT_ONLY = ["properties", "required", "minProperties", "maxProperties"];
/** What an array without `items` says its items are: Gemini needs a schema there. */
const ANY_ITEM: Json = { type: "string" };

export interface GeminiSchema {
  schema: Json;
  /** `path:keyword` for each keyword that was dropped or narrowed. */
  dropped: string[];
}

/** Rewrites the combinators and types Gemini has no word for into ones it has. */
function normalise(node: Json, report: (what: string) => void): Json {
  let src = { ...node };
  if (Array.isArray(src.allOf)) {
    const branches = src.allOf.filter(isObject);
    delete src.allOf;
    for (const b of branches) src = mergeSchemas(src, b);
  }
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
  if (src.type === "null") {
    delete src.type;
    src.nullable = true;
    report("type(null)");
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
    } else if (branches.length === 0) delete src.anyOf;
    else src.anyOf = branches;
  }
  if (Array.isArray(src.anyOf) && src.type !== undefined) {
    // The type holds in every branch, so it moves into the branches that do not say one.
    const type = src.type;
    delete src.type;
    src.anyOf = (src.anyOf as unknown[]).map((b) =>
      isObject(b) && b.type === undefined ? { ...b, type } : b,
    );
  }
  if (Array.isArray(src.enum)) {
    if (src.type === undefined || src.type === "string") src.enum = src.enum.map(String);
    else {
      delete src.enum;
      report("enum");
    }
  }
  if (src.type === undefined && !src.anyOf && isObject(src.properties)) src.type = "object";
  return src;
}

/** Removes what Gemini refuses around objects and arrays, once the children are converted. */
function tidy(out: Json, report: (what: string) => void): Json {
  if (Array.isArray(out.enum) && !out.type) out.type = "string";
  if (out.enum && out.type === "string") out.format = "enum";
  if (out.type !== "object") {
    for (const k of OBJECT_ONLY)
      if (k in out) {
        delete out[k];
        report(k);
      }
  } else {
    if (isObject(out.properties) && Object.keys(out.properties).length === 0) delete out.properties;
    const names = isObject(out.properties) ? Object.keys(out.properties) : [];
    if (Array.isArray(out.required)) {
      const unknown = out.required.filter((n) => !names.includes(String(n)));
      if (unknown.length) report(`required(${unknown.join(",")})`);
      const known = out.required.filter((n) => names.includes(String(n)));
      if (known.length) out.required = known;
      else delete out.required;
    }
  }
  if (out.type === "array" && out.items === undefined) {
    out.items = { ...ANY_ITEM };
    report("items(any → string)");
  }
  return out;
}

export function toGeminiSchema(input: Json | undefined): GeminiSchema {
  const dropped = new Set<string>();
  const walk = (node: unknown, path: string): unknown => {
    if (!isObject(node)) return node;
    const report = (what: string) => dropped.add(`${path || "/"}:${what}`);
    const src = normalise(node, report);
    const out: Json = {};
    for (const [k, v] of Object.entries(src)) {
      if (!KEEP.has(k)) {
        report(k);
        continue;
      }
      if (k === "format" && typeof v === "string" && !FORMATS[String(src.type)]?.has(v)) {
        report(`format(${v})`);
        continue;
      }
      if (k === "properties" && isObject(v)) {
        out.properties = Object.fromEntries(
          Object.entries(v).map(([name, s]) => [name, walk(s, `${path}/${name}`)]),
        );
      } else if (k === "items") {
        // A tuple (`items` as a list) becomes "any of these".
        const items = Array.isArray(v) ? (v.length === 1 ? v[0] : { anyOf: v }) : v;
        if (Array.isArray(v)) report("items(tuple)");
        out.items = walk(items, `${path}/items`);
      } else if (k === "anyOf" && Array.isArray(v))
        out.anyOf = v.map((s, i) => walk(s, `${path}/anyOf/${i}`));
      else out[k] = v;
    }
    return tidy(out, report);
  };
  const schema = walk(toolInputSchema(input).schema, "") as Json;
  return { schema, dropped: [...dropped].sort() };
}
