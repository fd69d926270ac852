// Tool input schemas from MCP servers, made acceptable to every provider: local $refs resolved
// into place (providers reject or ignore them) without changing what the schema accepts.
type Json = Record<string, unknown>;

/** Inlines `#/$defs/...` and `#/definitions/...` references; a cycle becomes an open object. */
export function resolveRefs(schema: Json): Json {
  const defs = {
    ...(schema.definitions as Json | undefined),
    ...(schema.$defs as Json | undefined),
  };
  const walk = (node: unknown, seen: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, seen));
    if (!node || typeof node !== "object") return node;
    const obj = node as Json;
    if (typeof obj.$ref === "string") {
      const match = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(obj.$ref);
      const name = match?.[1]
        ? decodeURIComponent(match[1].replace(/~1/g, "/").replace(/~0/g, "~"))
        : undefined;
      const target = name ? defs[name] : undefined;
      const { $ref: _ref, ...rest } = obj;
      if (!name || target === undefined || seen.includes(name))
        return { type: "object", ...(walk(rest, seen) as Json) };
      return { ...(walk(target, [...seen, name]) as Json), ...(walk(rest, seen) as Json) };
    }
    const out: Json = {};
    for (const [k, v] of Object.entries(obj)) {
      if (k === "$defs" || k === "definitions") continue;
      out[k] = walk(v, seen);
    }
    return out;
  };
  return walk(schema, []) as Json;
}

/** Every tool schema must be an object schema for the providers' function calling. */
export function toObjectSchema(schema: Json | undefined): Json {
  const resolved = resolveRefs(schema ?? {});
  return resolved.type === "object"
    ? resolved
    : { type: "object", properties: {}, ...resolved, ...(resolved.type ? {} : { type: "object" }) };
}
