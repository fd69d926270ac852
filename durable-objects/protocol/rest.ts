// Shapes of the REST API shared by the worker and the web client.
import { z } from "zod";
import { ToolPolicies } from "./tool-policy";

export const ConversationMode = z.enum(["normal", "graph", "tools"]);
export type ConversationMode = z.infer<typeof ConversationMode>;

/** Steps a turn may take when neither the conversation nor the message sets a limit. */
export const DEFAULT_MAX_STEPS = 5;
/** Our own MCP worker, offered to every conversation through its service binding. */
export const BUILTIN_SERVER = "mcp-remote";

export const ConversationSettings = z
  .object({
    maxSteps: z.number().int().min(1).max(20).optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: z.number().int().min(1).max(64_000).optional(),
    // MCP server names whose tools this conversation must not use (exact names).
    blockedServers: z.array(z.string().min(1).max(100)).max(100).optional(),
    // Per server: the only tools offered to the model. A server not listed offers all its tools.
    enabledTools: z.record(z.string(), z.array(z.string().min(1).max(200)).max(500)).optional(),
    // Per server and tool: allow, ask (wait for approval) or never; over the user's own policies.
    toolPolicies: ToolPolicies.optional(),
    // How long a call waits for approval before it counts as denied (default: 24 h).
    approvalTimeoutSeconds: z
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 3600)
      .optional(),
  })
  .strict();
export type ConversationSettings = z.infer<typeof ConversationSettings>;

export const Conversation = z.object({
  id: z.string(),
  title: z.string(),
  provider: z.string(),
  model: z.string(),
  mode: ConversationMode,
  settings: ConversationSettings,
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Conversation = z.infer<typeof Conversation>;

export const ProviderInfo = z.object({
  id: z.string(),
  configured: z.boolean(),
  defaultModel: z.string(),
  models: z.array(z.string()),
});
export type ProviderInfo = z.infer<typeof ProviderInfo>;

export const Artifact = z.object({
  id: z.string(),
  conversationId: z.string(),
  messageId: z.string().nullable(),
  type: z.string(),
  title: z.string(),
  language: z.string().nullable(),
  contentType: z.string().nullable(),
  size: z.number().nullable(),
  pinned: z.boolean(),
  position: z.number(),
  metadata: z.record(z.string(), z.unknown()),
  createdAt: z.number(),
  updatedAt: z.number(),
  content: z.string().nullable().optional(),
});
export type Artifact = z.infer<typeof Artifact>;

export const McpServer = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  // Header names with masked values: secrets never leave the server.
  headers: z.record(z.string(), z.string()),
  enabled: z.boolean(),
  timeoutMs: z.number(),
  enabledTools: z.array(z.string()).nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
  // The longest one tool call may take, however much progress it reports.
  maxTotalTimeoutMs: z.number(),
  // Present once the server asked for an OAuth sign-in: where this user's sign-in stands.
  signIn: z
    .object({
      status: z.enum(["needs_sign_in", "connected", "sign_in_again", "error"]),
      message: z.string(),
      account: z.string().optional(),
      scopes: z.string().optional(),
      errorCode: z.string().optional(),
    })
    .optional(),
});
export type McpServer = z.infer<typeof McpServer>;
export type McpSignIn = NonNullable<McpServer["signIn"]>;

/** POST /api/mcp-servers/:id/connect: where to send the user, or why that is not possible. */
export const McpConnectResult = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("redirect"), authorizationUrl: z.string() }),
  z.object({ kind: z.literal("connected") }),
  z.object({
    kind: z.literal("failed"),
    problem: z.object({ code: z.string(), message: z.string() }),
  }),
]);
export type McpConnectResult = z.infer<typeof McpConnectResult>;

// The answer of "test the connection" (POST /api/mcp-servers/test and friends): what the server
// says it is and which tools it offers, or why it could not be used, in words a person can act on.
export const McpToolInfo = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  // The hints that decide the tool's default approval policy (see tool-policy.ts).
  annotations: z
    .object({
      readOnlyHint: z.boolean().optional(),
      destructiveHint: z.boolean().optional(),
      openWorldHint: z.boolean().optional(),
    })
    .optional(),
});
export type McpToolInfo = z.infer<typeof McpToolInfo>;

export const McpServerTest = z.discriminatedUnion("ok", [
  z.object({
    ok: z.literal(true),
    serverInfo: z.object({ name: z.string(), version: z.string() }),
    protocolVersion: z.string(),
    tools: z.array(McpToolInfo),
  }),
  z.object({
    ok: z.literal(false),
    error: z.object({
      code: z.enum([
        "refused_url",
        "unreachable",
        "unauthorized",
        "not_found",
        "not_mcp",
        "server_error",
        "timeout",
        "protocol_error",
        "needs_sign_in",
      ]),
      message: z.string(),
    }),
  }),
]);
export type McpServerTest = z.infer<typeof McpServerTest>;
