// The MCP worker's env. Its bindings, vars and required secrets are generated from its
// wrangler.toml by `npm run types` (worker-configuration.d.ts, checked for drift by `npm test`);
// below, the optional settings wrangler.toml does not declare.
export type McpEnv = Cloudflare.Env & McpOptionalSettings;

export interface McpOptionalSettings {
  /** Bearer token every caller must send (our API worker sends it through the service binding). */
  MCP_REMOTE_TOKEN?: string;
  /** Verifies the scoped context the Conversation DO gives graph-tool calls. */
  GRAPH_CONTEXT_SECRET?: string;
  NCBI_API_KEY?: string;
  // Outside services; tests point these at recorded responses.
  EUTILS_BASE_URL?: string;
  PUBTATOR_BASE_URL?: string;
  CLINICALTRIALS_BASE_URL?: string;
  /** Per outside call, in milliseconds (default 15000). */
  OUTSIDE_TIMEOUT_MS?: string;
  /** Largest outside response read, in bytes (default 2 MiB). */
  OUTSIDE_MAX_BYTES?: string;
}
