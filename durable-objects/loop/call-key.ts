// Identity of a tool call for repeat detection: server, tool and canonical arguments. A model
// stuck in a loop often re-sends a call with other whitespace, key order or capitalisation; those
// are the same call, so keys and strings are compared trimmed, with whitespace collapsed and in
// lower case.
export function callKey(server: string, tool: string, args: unknown): string {
  return `${server}\u0000${tool.toLowerCase()}\u0000${canonicalJson(normalized(args))}`;
}

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function normalized(value: unknown): unknown {
  if (typeof value === "string") return value.trim().replace(/\s+/g, " ").toLowerCase();
  if (Array.isArray(value)) return value.map(normalized);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [
        k.trim().toLowerCase(),
        normalized(v),
      ]),
    );
  return value;
}
