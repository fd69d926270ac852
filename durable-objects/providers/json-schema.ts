// Tool input schemas from MCP servers, made acceptable to every provider: local `$ref`s resolved
// into place (providers reject or ignore them) and the root made a plain object schema (Anthropic
// and OpenAI refuse `anyOf`/`oneOf`/`allOf` at the top). Whatever cannot be kept exactly is
// reported, so the loss is visible; the MCP server still validates the arguments it receives.
export type Json = Record<string, unknown>;

export interface DroppedKeyword {
  /** JSON pointer into the original schema's shape (`/properties/nodes/items`), "" for the root. */
  path: string;
  keyword: string;
  note: string;
}

export interface ConvertedSchema {
  schema: Json;
  dropped: DroppedKeyword[];
}

/** Keywords that never change what a schema accepts: removed without a report. */
export const ANNOTATIONS: ReadonlySet<string> = new Set([
  "$schema",
  "$id",
  "$anchor",
  "$dynamicAnchor",
  "$comment",
  "$vocabulary",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "contentMediaType",
  "contentEncoding",
]);

/** How many times one definition may be inlined inside itself before the recursion is cut. */
const MAX_DEPTH = 2;

export const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function pointer(root: Json, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Two schemas that must both hold, as one (properties and required lists united). */
export function mergeSchemas(a: Json, b: Json): Json {
  const out: Json = { ...a, ...b };
  if (isObject(a.properties) && isObject(b.properties))
    out.properties = { ...a.properties, ...b.properties };
  if (Array.isArray(a.required) && Array.isArray(b.required))
    out.required = [...new Set([...(a.required as string[]), ...(b.required as string[])])];
  return out;
}

// Where subschemas live, so values (`enum`, `const`, `default`) are never mistaken for schemas.
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "dependentSchemas"]);
const SCHEMA_LISTS = new Set(["anyOf", "allOf", "oneOf", "prefixItems"]);
const SCHEMA_SLOTS = new Set([
  "items",
  "additionalItems",
  "additionalProperties",
  "unevaluatedItems",
  "unevaluatedProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
]);

/** Copies one schema node, passing each direct subschema (and its path) through `fn`. */
export function mapSubschemas(
  node: Json,
  path: string,
  fn: (sub: unknown, path: string) => unknown,
): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    const at = `${path}/${k}`;
    if (SCHEMA_MAPS.has(k) && isObject(v))
      out[k] = Object.fromEntries(Object.entries(v).map(([n, s]) => [n, fn(s, `${at}/${n}`)]));
    else if ((SCHEMA_LISTS.has(k) || k === "items") && Array.isArray(v))
      out[k] = v.map((s, i) => fn(s, `${at}/${i}`));
    else if (SCHEMA_SLOTS.has(k)) out[k] = fn(v, at);
    else out[k] = v;
  }
  return out;
}

/**
 * Inlines every local reference (`#/$defs/X`, `#/definitions/X`, any `#/...` pointer); a
 * recursive definition is unrolled {@link MAX_DEPTH} times, then cut to an open schema of the same
 * type. References that cannot be resolved become open schemas. Both are reported.
 */
export function resolveRefs(schema: Json): ConvertedSchema {
  const dropped: DroppedKeyword[] = [];
  const walk = (node: unknown, path: string, stack: readonly string[]): unknown => {
    if (!isObject(node)) return node;
    const { $ref, $defs: _defs, definitions: _definitions, ...rest } = node;
    const own = mapSubschemas(rest, path, (sub, at) => walk(sub, at, stack));
    if (typeof $ref !== "string") return own;
    const target = pointer(schema, $ref);
    if (!isObject(target)) {
      dropped.push({ path, keyword: "$ref", note: `unresolvable reference ${$ref}: any value` });
      return own;
    }
    if (stack.filter((r) => r === $ref).length >= MAX_DEPTH) {
      dropped.push({
        path,
        keyword: "$ref",
        note: `recursive reference ${$ref} cut here: deeper levels are not checked`,
      });
      const type = target.type;
      return { ...(type !== undefined && { type }), ...own };
    }
    return mergeSchemas(walk(target, path, [...stack, $ref]) as Json, own);
  };
  return { schema: walk(schema, "", []) as Json, dropped };
}

/** The object branches of a root `anyOf`/`oneOf`/`allOf`, folded into one object schema. */
function foldRootCombinators(schema: Json, dropped: DroppedKeyword[]): Json {
  let out: Json = { ...schema };
  if (Array.isArray(out.allOf)) {
    const branches = out.allOf.filter(isObject);
    delete out.allOf;
    for (const b of branches) out = mergeSchemas(out, b);
  }
  for (const keyword of ["anyOf", "oneOf"] as const) {
    if (!Array.isArray(out[keyword])) continue;
    const branches = (out[keyword] as unknown[]).filter(isObject);
    delete out[keyword];
    const properties: Json = { ...(isObject(out.properties) ? out.properties : {}) };
    for (const b of branches) if (isObject(b.properties)) Object.assign(properties, b.properties);
    const required = branches
      .map((b) => (Array.isArray(b.required) ? (b.required as string[]) : []))
      .reduce<string[] | null>((acc, r) => (acc ? acc.filter((x) => r.includes(x)) : r), null);
    out.properties = properties;
    const allRequired = [
      ...new Set([...((out.required as string[] | undefined) ?? []), ...(required ?? [])]),
    ];
    if (allRequired.length) out.required = allRequired;
    else delete out.required;
    dropped.push({
      path: "",
      keyword,
      note: "alternatives at the root merged into one object: which fields go together is not enforced",
    });
  }
  return out;
}

/**
 * What every provider gets at least: references resolved, annotations that only add noise
 * removed at the root, and an object schema at the root with `properties`.
 */
export function toolInputSchema(input: Json | undefined): ConvertedSchema {
  const { schema: resolved, dropped } = resolveRefs(input ?? {});
  const root = foldRootCombinators(resolved, dropped);
  for (const k of Object.keys(root)) if (ANNOTATIONS.has(k)) delete root[k];
  if (root.type !== "object") {
    if (root.type !== undefined)
      dropped.push({
        path: "",
        keyword: "type",
        note: `root type ${String(root.type)} read as object`,
      });
    root.type = "object";
  }
  if (!isObject(root.properties)) root.properties = {};
  return { schema: root, dropped };
}

/** Kept until every adapter prepares its tools with {@link toolInputSchema}. */
export const toObjectSchema = (schema: Json | undefined): Json => toolInputSchema(schema).schema;

/** One line per dropped keyword, for a notice or a tool description. */
export const describeDropped = (dropped: readonly DroppedKeyword[]): string[] =>
  dropped.map((d) => `${d.path || "/"}: ${d.keyword} (${d.note})`);
