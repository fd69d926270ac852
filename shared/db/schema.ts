// The D1 schema: everything that must be queryable across conversations.
// Migrations in /migrations are generated from this file with `npm run db:generate`.
import { sql } from "drizzle-orm";
import {
  index,
  integer,
  primaryKey,
  real,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { displayTitle } from "./display-title";

const now = sql`(unixepoch('subsec') * 1000)`;
const createdAt = () => integer("created_at", { mode: "number" }).notNull().default(now);

export const users = sqliteTable("users", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: createdAt(),
});

export const apiTokens = sqliteTable(
  "api_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // SHA-256 of the token, hex. The token itself is shown once and never stored.
    tokenHash: text("token_hash").notNull(),
    label: text("label").notNull().default(""),
    createdAt: createdAt(),
    expiresAt: integer("expires_at", { mode: "number" }),
    lastUsedAt: integer("last_used_at", { mode: "number" }),
  },
  (t) => [
    uniqueIndex("api_tokens_hash_idx").on(t.tokenHash),
    index("api_tokens_user_idx").on(t.userId),
  ],
);

export const conversations = sqliteTable(
  "conversations",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: displayTitle("title").notNull(),
    provider: text("provider").notNull(),
    model: text("model").notNull(),
    mode: text("mode", { enum: ["normal", "graph", "tools"] })
      .notNull()
      .default("normal"),
    // JSON: ConversationSettings (maxSteps, temperature, blockedServers, enabledTools, ...).
    settings: text("settings").notNull().default("{}"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "number" }).notNull().default(now),
    // A branch: the conversation it was made from, the message and tool step it was made at,
    // and the first message order (seq) that is its own (the ones before are the origin's).
    parentConversationId: text("parent_conversation_id"),
    branchedFromMessageId: text("branched_from_message_id"),
    branchedFromStep: integer("branched_from_step"),
    branchSeq: integer("branch_seq"),
  },
  (t) => [
    index("conversations_user_updated_idx").on(t.userId, t.updatedAt),
    index("conversations_parent_idx").on(t.parentConversationId),
  ],
);

export const messages = sqliteTable(
  "messages",
  {
    id: text("id").primaryKey(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["user", "assistant"] }).notNull(),
    // JSON: MessagePart[] (text, reasoning, artifact references, ...).
    content: text("content").notNull(),
    status: text("status", { enum: ["complete", "interrupted", "failed", "cancelled"] })
      .notNull()
      .default("complete"),
    // Order within the conversation; assigned by the Conversation DO.
    seq: integer("seq").notNull(),
    clientMessageId: text("client_message_id"),
    createdAt: createdAt(),
    // Who wrote a user message (several people can write in a shared conversation).
    authorId: text("author_id").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    uniqueIndex("messages_conversation_seq_idx").on(t.conversationId, t.seq),
    uniqueIndex("messages_client_id_idx").on(t.conversationId, t.clientMessageId),
  ],
);

export const artifacts = sqliteTable(
  "artifacts",
  {
    id: text("id").primaryKey(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    messageId: text("message_id").references(() => messages.id, { onDelete: "set null" }),
    type: text("type").notNull(),
    title: displayTitle("title").notNull(),
    // Text artifacts keep their content here; binaries live in R2 under r2Key.
    content: text("content"),
    r2Key: text("r2_key"),
    contentType: text("content_type"),
    size: integer("size"),
    language: text("language"),
    // JSON: free-form metadata, including where the artifact came from (server, tool, args, step).
    metadata: text("metadata").notNull().default("{}"),
    position: integer("position").notNull().default(0),
    pinned: integer("pinned", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "number" }).notNull().default(now),
  },
  (t) => [
    index("artifacts_conversation_idx").on(t.conversationId, t.position),
    index("artifacts_message_idx").on(t.messageId),
  ],
);

// Earlier contents of a text artifact, kept on each save that changes it, so that an edit can be
// looked at and undone. The newest few per artifact are kept (db/artifact-versions.ts).
export const artifactVersions = sqliteTable(
  "artifact_versions",
  {
    id: text("id").primaryKey(),
    artifactId: text("artifact_id")
      .notNull()
      .references(() => artifacts.id, { onDelete: "cascade" }),
    title: displayTitle("title").notNull(),
    content: text("content").notNull(),
    size: integer("size").notNull(),
    // When this content was saved (the artifact's updatedAt then), not when it was replaced.
    savedAt: integer("saved_at", { mode: "number" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("artifact_versions_artifact_idx").on(t.artifactId, t.savedAt)],
);

export const mcpServers = sqliteTable(
  "mcp_servers",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    url: text("url").notNull(),
    // JSON: Record<string,string>; secret, never returned to clients in full.
    headers: text("headers").notNull().default("{}"),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    timeoutMs: integer("timeout_ms").notNull().default(60000),
    // Progress resets the per-call timeout; this bounds one call in total (10 min).
    maxTotalMs: integer("max_total_ms").notNull().default(600000),
    // JSON: string[] | null — null means every tool is enabled.
    enabledTools: text("enabled_tools"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "number" }).notNull().default(now),
  },
  (t) => [uniqueIndex("mcp_servers_user_name_idx").on(t.userId, t.name)],
);

export const usage = sqliteTable(
  "usage",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id").references(() => conversations.id, {
      onDelete: "set null",
    }),
    provider: text("provider").notNull(),
    model: text("model").notNull(),
    inputTokens: integer("input_tokens").notNull().default(0),
    outputTokens: integer("output_tokens").notNull().default(0),
    cachedTokens: integer("cached_tokens").notNull().default(0),
    createdAt: createdAt(),
    // The answer (turn) and step the model call belonged to; null on rows from before.
    turnId: text("turn_id"),
    messageId: text("message_id"),
    step: integer("step"),
    reasoningTokens: integer("reasoning_tokens").notNull().default(0),
    // USD from the price table when the call was made; null when the model had no price.
    costUsd: real("cost_usd"),
    // Tokens estimated, not the provider's count: a call cancelled or cut off by a restart
    // before its provider said what it used.
    estimated: integer("estimated", { mode: "boolean" }).notNull().default(false),
    // The call completed without a usage report (a compatible server that sends none): its
    // tokens are zero, not a guess, and the totals say how many calls they leave out.
    unreported: integer("unreported", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    index("usage_user_idx").on(t.userId, t.createdAt),
    index("usage_conversation_idx").on(t.conversationId, t.messageId),
  ],
);

// An OpenAI-compatible request's Idempotency-Key (per user): a repeat of the request within the
// window gets the first one's answer instead of starting another turn.
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    // SHA-256 of the route, the X-Conversation-Id header and the body: a different request
    // under the same key is refused.
    fingerprint: text("fingerprint").notNull(),
    // The conversation the message went to (created for it when the request named none); its
    // deletion frees the key.
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    clientMessageId: text("client_message_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    index("idempotency_keys_conversation_idx").on(t.conversationId),
  ],
);

// --- MCP sign-in (OAuth 2.1), per user and server. Secrets are AES-GCM ciphertexts
// (durable-objects/mcp/oauth/secret-box.ts); nothing here is ever returned to a client as is.

export const mcpOauthConnections = sqliteTable(
  "mcp_oauth_connections",
  {
    serverId: text("server_id")
      .notNull()
      .references(() => mcpServers.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // needs_sign_in | connected | sign_in_again | error (see oauth/connection-status.ts).
    status: text("status").notNull(),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    // Encrypted JSON: the client registration (client id, and secret when there is one).
    clientInfo: text("client_info"),
    // Encrypted JSON: access and refresh tokens as the authorization server issued them.
    tokens: text("tokens"),
    // JSON: discovered metadata (public documents, not secret).
    discovery: text("discovery"),
    redirectUrl: text("redirect_url"),
    scopes: text("scopes"),
    // Scopes the server asked for (403 insufficient_scope) beyond the grant; Connect asks for them.
    requestedScopes: text("requested_scopes"),
    account: text("account"),
    expiresAt: integer("expires_at", { mode: "number" }),
    updatedAt: integer("updated_at", { mode: "number" }).notNull().default(now),
  },
  (t) => [
    uniqueIndex("mcp_oauth_connections_pk").on(t.serverId, t.userId),
    index("mcp_oauth_connections_user_idx").on(t.userId),
  ],
);

export const mcpOauthPending = sqliteTable(
  "mcp_oauth_pending",
  {
    // SHA-256 of the `state` sent to the authorization server; the state itself is not kept.
    stateHash: text("state_hash").primaryKey(),
    serverId: text("server_id")
      .notNull()
      .references(() => mcpServers.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // Encrypted PKCE code verifier.
    codeVerifier: text("code_verifier"),
    // Encrypted client registration this sign-in started with: two Connects at once may each
    // register, and the code can only be exchanged by the client it was issued to.
    clientInfo: text("client_info"),
    // "popup" closes the callback page; "redirect" sends the browser back to the app.
    display: text("display").notNull().default("popup"),
    createdAt: createdAt(),
  },
  (t) => [index("mcp_oauth_pending_user_idx").on(t.userId)],
);

// Browser sessions: the cookie carries a signed session id; the row is what makes it valid.
// Signing out deletes the row; deleting the token that opened it removes it too (cascade).
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenId: text("token_id")
      .notNull()
      .references(() => apiTokens.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    expiresAt: integer("expires_at", { mode: "number" }).notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_token_idx").on(t.tokenId)],
);

// Tool policies a user set for all their conversations (a conversation's settings override
// them): per MCP server (tool = "") or per tool, "allow", "ask" or "never".
export const toolPolicies = sqliteTable(
  "tool_policies",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    server: text("server").notNull(),
    tool: text("tool").notNull().default(""),
    policy: text("policy", { enum: ["allow", "ask", "never"] }).notNull(),
    updatedAt: integer("updated_at", { mode: "number" }).notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.userId, t.server, t.tool] })],
);

// A user's conversation templates (built-ins live in code, not here).
export const templates = sqliteTable(
  "templates",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    systemPrompt: text("system_prompt").notNull().default(""),
    // JSON: TemplateMessage[] — the conversation's starting messages.
    messages: text("messages").notNull().default("[]"),
    // JSON: TemplateDefaults — provider, model, mode, step limit, servers and tools.
    defaults: text("defaults").notNull().default("{}"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "number" }).notNull().default(now),
  },
  (t) => [index("templates_user_idx").on(t.userId, t.name)],
);

// People a conversation's owner shares it with (the owner is never a row here).
export const conversationMembers = sqliteTable(
  "conversation_members",
  {
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["viewer", "participant"] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.conversationId, t.userId] }),
    index("conversation_members_user_idx").on(t.userId),
  ],
);

// Members no longer in a conversation (their row in conversation_members is gone): whether they
// left of their own accord or the owner removed them, so that whoever reads the membership later
// (the conversation re-reading its members, a tab reconnecting) can say which; forgotten when
// the owner shares it with them again.
export const conversationDepartures = sqliteTable(
  "conversation_departures",
  {
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reason: text("reason", { enum: ["left", "removed"] }).notNull(),
    leftAt: integer("left_at", { mode: "number" }).notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.userId] })],
);

// Read-only links to a snapshot of a conversation (its messages up to `upToSeq`).
export const shareLinks = sqliteTable(
  "share_links",
  {
    id: text("id").primaryKey(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    upToSeq: integer("up_to_seq").notNull(),
    createdAt: createdAt(),
    expiresAt: integer("expires_at", { mode: "number" }),
    revokedAt: integer("revoked_at", { mode: "number" }),
  },
  (t) => [index("share_links_conversation_idx").on(t.conversationId)],
);

// The latest health checks of each model provider (GET /api/providers/health): whether it
// answered and how fast. Deployment-wide, like the providers' keys; a few kept per provider.
export const providerChecks = sqliteTable(
  "provider_checks",
  {
    id: text("id").primaryKey(),
    provider: text("provider").notNull(),
    reachable: integer("reachable", { mode: "boolean" }).notNull(),
    latencyMs: integer("latency_ms").notNull(),
    checkedAt: createdAt(),
  },
  (t) => [index("provider_checks_provider_idx").on(t.provider, t.checkedAt)],
);
