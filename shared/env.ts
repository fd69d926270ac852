// The API worker's env. Its bindings, vars and required secrets are generated from wrangler.toml
// by `npm run types` (shared/worker-configuration.d.ts; `npm test` fails when it drifts). The
// settings below are optional secrets and vars an operator may set, which wrangler.toml does not
// declare, so no generator can know them.
export type Env = Cloudflare.Env & OptionalSettings;

export interface OptionalSettings {
  ANTHROPIC_API_KEY?: string;
  ANTHROPIC_BASE_URL?: string;
  OPENAI_API_KEY?: string;
  OPENAI_BASE_URL?: string;
  OPENAI_API?: string;
  OPENAI_REASONING_SUMMARY?: string;
  GEMINI_API_KEY?: string;
  GEMINI_BASE_URL?: string;
  OLLAMA_BASE_URL?: string;
  OLLAMA_ACCESS_CLIENT_ID?: string;
  OLLAMA_ACCESS_CLIENT_SECRET?: string;
  // How long a failing MCP server is skipped (ms); 30 s unless set.
  MCP_BREAKER_COOLDOWN_MS?: string;
  // Earlier keys, comma-separated, kept while their ciphertexts are still around.
  OAUTH_ENCRYPTION_OLD_KEYS?: string;
  // DNS-over-HTTPS JSON endpoint that vouches for MCP server names outside development.
  MCP_DNS_RESOLVER?: string;
  // Standing MCP streams of a conversation nobody uses close after this long (ms); 5 min unless set.
  MCP_IDLE_CLOSE_MS?: string;
  // How long a tool call waits for the user's approval before it counts as denied (s); 24 h unless set.
  APPROVAL_TTL_SECONDS?: string;
  // Rate limit overrides (see rate-limit/limits.ts), "<requests>/<seconds>": our own counters
  // serve a limit wherever its override is set.
  RATE_LIMIT_SIGN_IN?: string;
  RATE_LIMIT_BAD_BEARER?: string;
  RATE_LIMIT_NEW_CONVERSATION?: string;
  RATE_LIMIT_MESSAGE?: string;
  RATE_LIMIT_CONNECTION_TEST?: string;
  RATE_LIMIT_WS_TICKET?: string;
  // How long a tool call waits for the answer to its MCP server's question (s); 10 min unless set.
  ELICITATION_TIMEOUT_SECONDS?: string;
  // Model prices over the built-in table, JSON: {"model": {"input": 3, "output": 15, "cachedInput": 0.3}} (USD per million tokens).
  MODEL_PRICES?: string;
  // Default per-turn budgets (a conversation's settings.budgets replace them): total tokens, USD, seconds.
  TURN_BUDGET_TOKENS?: string;
  TURN_BUDGET_COST_USD?: string;
  TURN_BUDGET_SECONDS?: string;
  // Per user and UTC day, set by the operator: past it, new messages are refused (429 / 402).
  DAILY_TOKEN_ALLOWANCE?: string;
  DAILY_COST_ALLOWANCE_USD?: string;
  // "true": the audit log keeps each model request in full (message text included); sizes only otherwise.
  AUDIT_FULL_REQUESTS?: string;
  // Attachments: the largest file (bytes, 10 MiB unless set) and what one user may keep in all (200 MiB).
  ATTACHMENT_MAX_BYTES?: string;
  ATTACHMENT_QUOTA_BYTES?: string;
}
