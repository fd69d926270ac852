// Tool catalogs shared by every conversation of a user in this isolate. A server's tool list is the
// same for each of them, so a new conversation need not open a session (initialize, tools/list)
// before its first answer: it offers the tools a sibling listed lately and opens its own session
// only when the model calls one. Kept briefly, per user and per server address and headers, and
// dropped as soon as any session hears `notifications/tools/list_changed`.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";

/** How long a listed catalog stands in for a new tools/list (servers rarely change tools). */
export const SHARED_CATALOG_TTL_MS = 5 * 60_000;
/** Bounds the memory an isolate gives to catalogs (the oldest go first). */
const MAX_ENTRIES = 500;

export interface CatalogSource {
  userId: string;
  name: string;
  url: string;
  headers: Record<string, string>;
}

interface Entry {
  tools: Tool[];
  listedAt: number;
}

const entries = new Map<string, Entry>();

// Headers are part of the key: another credential may see other tools.
const keyOf = (s: CatalogSource) =>
  JSON.stringify([s.userId, s.name, s.url, Object.entries(s.headers).sort()]);

export function sharedCatalog(s: CatalogSource, now = Date.now()): Tool[] | null {
  const key = keyOf(s);
  const entry = entries.get(key);
  if (!entry) return null;
  if (now - entry.listedAt < SHARED_CATALOG_TTL_MS) return entry.tools;
  entries.delete(key);
  return null;
}

export function shareCatalog(s: CatalogSource, tools: Tool[], now = Date.now()): void {
  const key = keyOf(s);
  entries.delete(key);
  entries.set(key, { tools, listedAt: now });
  for (const oldest of entries.keys()) {
    if (entries.size <= MAX_ENTRIES) break;
    entries.delete(oldest);
  }
}

export function forgetSharedCatalog(s: CatalogSource): void {
  entries.delete(keyOf(s));
}
