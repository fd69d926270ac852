// How an MCP server is reached, apart from the MCP client itself: routes that only check URLs or
// fetch (sign-in, connection tests) import this without loading the SDK's client at start-up.
import { type ResolveHost, sharedDohResolver } from "./dns-over-https";
import { guardedFetch } from "./guarded-fetch";

/**
 * How a server is reached: over the internet, with the URL, the addresses its name resolves to
 * and every redirect checked; or through a service binding (our own MCP worker).
 */
export type McpRoute =
  | { kind: "internet"; allowLocal: boolean; resolveHost?: ResolveHost; fetch?: typeof fetch }
  | { kind: "binding"; fetch: typeof fetch };

/** The internet route for this deployment: names are resolved (DNS over HTTPS) outside development. */
export function internetRoute(config: {
  allowLocal: boolean;
  dnsResolver?: string | undefined;
}): McpRoute {
  const { allowLocal } = config;
  return {
    kind: "internet",
    allowLocal,
    ...(!allowLocal && { resolveHost: sharedDohResolver(config.dnsResolver || undefined) }),
  };
}

export function fetchFor(route: McpRoute): typeof fetch {
  if (route.kind === "binding") return route.fetch;
  return guardedFetch(route.fetch ?? fetch, {
    allowLocal: route.allowLocal,
    ...(route.resolveHost && { resolveHost: route.resolveHost }),
  });
}
