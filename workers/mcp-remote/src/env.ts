export interface McpEnv {
  DB: D1Database;
  APP_ENV: string;
  /** Bearer token every caller must send (our API worker sends it through the service binding). */
  MCP_REMOTE_TOKEN?: string;
  /** Verifies the scoped context the Conversation DO gives graph-tool calls. */
  GRAPH_CONTEXT_SECRET?: string;
  /** Comma-separated browser origins allowed to call /mcp (the MCP Inspector, for example). */
  ALLOWED_ORIGINS?: string;
  NCBI_API_KEY?: string;
  NCBI_TOOL_EMAIL?: string;
  // Outside services; tests point these at recorded responses.
  EUTILS_BASE_URL?: string;
  PUBTATOR_BASE_URL?: string;
  CLINICALTRIALS_BASE_URL?: string;
}
