// Provider-safe tool names (^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$) for `server:tool` pairs: readable where
// possible, unique always, and mapped back exactly.
const SAFE = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;
const MAX = 64;

export interface ToolNameMap {
  toSafe(server: string, tool: string): string;
  fromSafe(name: string): { server: string; tool: string } | undefined;
}

function clean(text: string): string {
  return (
    text
      .replace(/[^a-zA-Z0-9_-]+/g, "_")
      .replace(/_+/g, "_")
      .replace(/^_|_$/g, "") || "x"
  );
}

function shortHash(text: string): string {
  // FNV-1a, 32 bits: enough to tell names apart once they are already mostly equal.
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36);
}

export function buildToolNameMap(
  entries: readonly { server: string; tool: string }[],
): ToolNameMap {
  const forward = new Map<string, string>();
  const backward = new Map<string, { server: string; tool: string }>();
  const key = (server: string, tool: string) => `${server}\u0000${tool}`;
  // Sorted, so the same catalog always yields the same names (a resumed turn relies on it).
  const sorted = [...entries].sort((a, b) =>
    key(a.server, a.tool).localeCompare(key(b.server, b.tool)),
  );
  for (const { server, tool } of sorted) {
    if (forward.has(key(server, tool))) continue;
    let name = `${clean(server)}__${clean(tool)}`;
    // Gemini also wants a letter or underscore first.
    if (!/^[a-zA-Z_]/.test(name)) name = `t_${name}`;
    if (name.length > MAX || !SAFE.test(name)) name = name.slice(0, MAX);
    if (backward.has(name)) {
      const suffix = `_${shortHash(key(server, tool))}`;
      name = `${name.slice(0, MAX - suffix.length)}${suffix}`;
      for (let n = 2; backward.has(name); n++)
        name = `${name.slice(0, MAX - suffix.length - String(n).length)}${suffix}${n}`;
    }
    forward.set(key(server, tool), name);
    backward.set(name, { server, tool });
  }
  return {
    toSafe: (server, tool) => {
      const name = forward.get(key(server, tool));
      if (!name) throw new Error(`tool ${server}:${tool} is not in the catalog`);
      return name;
    },
    fromSafe: (name) => backward.get(name),
  };
}
