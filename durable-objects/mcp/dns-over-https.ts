// Resolves host names with DNS over HTTPS (the JSON API that Cloudflare and Google serve), so the
// URL guard can judge the addresses a name points at rather than the name as written. Answers
// are cached for their TTL.
import { z } from "zod";

/** Cloudflare's public resolver; its JSON API needs no key. */
export const DEFAULT_DOH_RESOLVER = "https://1.1.1.1/dns-query";

/** Every A and AAAA address of a name (empty when it has none). */
export type ResolveHost = (host: string) => Promise<string[]>;

export class DnsLookupError extends Error {
  readonly code = "dns_failed";
}

const A = 1;
const AAAA = 28;
/** Names that answer with no address are asked again after this long. */
const NEGATIVE_TTL_SECONDS = 30;
const MAX_CACHED_NAMES = 1000;
const LOOKUP_TIMEOUT_MS = 5_000;

const DohAnswer = z.object({
  Status: z.number(),
  Answer: z
    .array(z.object({ type: z.number(), TTL: z.number().optional(), data: z.string() }))
    .optional(),
});

interface Cached {
  addresses: string[];
  expiresAt: number;
}

/**
 * A resolver over `resolverUrl`. `fetchImpl` reaches the resolver itself (never through the URL
 * guard: the resolver is configured by the operator, not by users).
 */
export function dohResolver(
  resolverUrl: string = DEFAULT_DOH_RESOLVER,
  fetchImpl: typeof fetch = fetch,
  now: () => number = Date.now,
): ResolveHost {
  const cache = new Map<string, Cached>();

  const lookup = async (host: string, type: number): Promise<{ data: string[]; ttl: number }> => {
    const url = new URL(resolverUrl);
    url.searchParams.set("name", host);
    url.searchParams.set("type", type === A ? "A" : "AAAA");
    let body: unknown;
    try {
      const res = await fetchImpl(url, {
        headers: { accept: "application/dns-json" },
        signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS),
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      body = await res.json();
    } catch (err) {
      throw new DnsLookupError(
        `Could not resolve ${host} through ${url.origin} (${err instanceof Error ? err.message : String(err)})`,
      );
    }
    const parsed = DohAnswer.safeParse(body);
    if (!parsed.success)
      throw new DnsLookupError(`The DNS resolver ${url.origin} answered something unreadable`);
    // 3 is NXDOMAIN: the name does not exist, so it has no address.
    if (parsed.data.Status !== 0 && parsed.data.Status !== 3)
      throw new DnsLookupError(
        `The DNS resolver could not resolve ${host} (status ${parsed.data.Status})`,
      );
    const records = (parsed.data.Answer ?? []).filter((r) => r.type === type);
    const ttl = Math.min(...records.map((r) => r.TTL ?? 0), NEGATIVE_TTL_SECONDS * 10);
    return {
      data: records.map((r) => r.data),
      ttl: records.length > 0 ? ttl : NEGATIVE_TTL_SECONDS,
    };
  };

  return async (rawHost) => {
    const host = rawHost.toLowerCase().replace(/\.+$/, "");
    const hit = cache.get(host);
    if (hit && hit.expiresAt > now()) return hit.addresses;
    const [v4, v6] = await Promise.all([lookup(host, A), lookup(host, AAAA)]);
    const addresses = [...v4.data, ...v6.data];
    if (cache.size >= MAX_CACHED_NAMES) cache.clear();
    cache.set(host, { addresses, expiresAt: now() + Math.min(v4.ttl, v6.ttl) * 1000 });
    return addresses;
  };
}

const shared = new Map<string, ResolveHost>();

/** One resolver (and cache) per resolver URL for the life of the isolate. */
export function sharedDohResolver(resolverUrl: string = DEFAULT_DOH_RESOLVER): ResolveHost {
  let resolver = shared.get(resolverUrl);
  if (!resolver) shared.set(resolverUrl, (resolver = dohResolver(resolverUrl)));
  return resolver;
}
