// The only way a request reaches an MCP server on the internet: the URL is checked first, names
// are resolved and their addresses checked (in production), redirects are followed here, one hop
// at a time, each hop checked the same way, and credentials never follow a redirect to another
// origin.
import type { ResolveHost } from "./dns-over-https";
import { checkServerUrl, needsResolving, resolvedAddressProblem } from "./url-guard";

export class RefusedUrlError extends Error {
  readonly code = "refused_url";
}

export interface GuardOptions {
  /** Local development: plain http to loopback is allowed and names are not resolved. */
  allowLocal: boolean;
  /** Resolves names outside local development; without one, names are judged as written. */
  resolveHost?: ResolveHost;
}

const MAX_REDIRECTS = 5;

/**
 * What a request may carry to another origin after a redirect: the protocol's own headers.
 * Everything else (Authorization, cookies, API keys, any header the user configured) stays
 * with the origin it was meant for, as the fetch standard does for Authorization.
 */
const CROSS_ORIGIN_HEADERS = new Set([
  "accept",
  "content-type",
  "mcp-protocol-version",
  "mcp-session-id",
  "last-event-id",
]);

async function refusal(url: URL, opts: GuardOptions, hop: number): Promise<string | null> {
  const check = checkServerUrl(url.href, opts);
  const where = hop === 0 ? url.href : `the redirect to ${url.href}`;
  if (!check.ok) return `Refused ${where}: ${check.reason}`;
  if (opts.allowLocal || !opts.resolveHost || !needsResolving(url)) return null;
  const addresses = await opts.resolveHost(url.hostname);
  if (addresses.length === 0) return `Refused ${where}: ${url.hostname} has no public DNS address`;
  for (const address of addresses) {
    const problem = resolvedAddressProblem(address);
    if (problem) return `Refused ${where}: ${url.hostname} resolves to ${address}, a ${problem}`;
  }
  return null;
}

function crossOriginHeaders(headers: Headers): Headers {
  const kept = new Headers();
  for (const [name, value] of headers)
    if (CROSS_ORIGIN_HEADERS.has(name.toLowerCase())) kept.set(name, value);
  return kept;
}

/** A fetch that checks the URL first and follows redirects itself, checking each hop. */
export function guardedFetch(fetchImpl: typeof fetch, opts: GuardOptions): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const first = new Request(input, init);
    // JSON-RPC bodies are small: held in memory so a 307 or 308 can send them again.
    let body: ArrayBuffer | null = first.body ? await first.arrayBuffer() : null;
    let url = new URL(first.url);
    let method = first.method;
    let headers = new Headers(first.headers);
    for (let hop = 0; ; hop++) {
      const refused = await refusal(url, opts, hop);
      if (refused) throw new RefusedUrlError(refused);
      const response = await fetchImpl(url.href, {
        method,
        headers,
        body,
        redirect: "manual",
        signal: first.signal,
      });
      const location = response.headers.get("location");
      if (response.status < 300 || response.status >= 400 || !location) return response;
      await response.body?.cancel();
      if (hop >= MAX_REDIRECTS) throw new RefusedUrlError(`Too many redirects from ${first.url}`);
      const next = new URL(location, url);
      // 301, 302 and 303 turn the request into a GET without a body; 307 and 308 repeat it.
      if (response.status !== 307 && response.status !== 308 && method !== "HEAD") {
        method = "GET";
        body = null;
        headers.delete("content-type");
      }
      if (next.origin !== url.origin) headers = crossOriginHeaders(headers);
      url = next;
    }
  }) as typeof fetch;
}
