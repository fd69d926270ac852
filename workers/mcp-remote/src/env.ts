import type { SessionLogLevel } from "./logging/session-log-level";

export interface McpEnv {
  DB: D1Database;
  /** The log level each session set with logging/setLevel. */
  SESSION_LOG_LEVELS: DurableObjectNamespace<SessionLogLevel>;
  APP_ENV: string;
  /** Bearer token every caller must send (our API worker sends it through the service binding). */
  MCP_REMOTE_TOKEN?: string;
  /** Verifies the scoped context the Conversation DO gives graph-tool calls. */
  GRAPH_CONTEXT_SECRET?: string;
  /** Comma-separated browser origins allowed to call /mcp (the MCP Inspector's, for example). */
  ALLOWED_ORIGINS?: string;
  /** Comma-separated host names (or host:port) this server answers to, against DNS rebinding. */
  ALLOWED_HOSTS?: string;
  NCBI_API_KEY?: string;
  NCBI_TOOL_EMAIL?: string;
  // Outside services; tests point these at recorded responses.
  EUTILS_BASE_URL?: string;
  PUBTATOR_BASE_URL?: string;
  CLINICALTRIALS_BASE_URL?: string;
  /** Per outside call, in milliseconds (default 15000). */
  OUTSIDE_TIMEOUT_MS?: string;
  /** Largest outside response read, in bytes (default 2 MiB). */
  OUTSIDE_MAX_BYTES?: string;
}
