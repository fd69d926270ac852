// Shapes of the REST API shared by the worker and the web client.
import { z } from "zod";
import { TemplateContext } from "./template-context";
import { ToolPolicies } from "./tool-policy";

export const ConversationMode = z.enum(["normal", "graph", "tools"]);
export type ConversationMode = z.infer<typeof ConversationMode>;

/** Steps a turn may take when neither the conversation nor the message sets a limit. */
export const DEFAULT_MAX_STEPS = 5;
/** Our own MCP worker, offered to every conversation through its service binding. */
export const BUILTIN_SERVER = "mcp-remote";

/** Per-turn budgets: total tokens (input + output), USD, and seconds of running time. */
export const TurnBudgetSettings = z
  .object({
    tokens: z.number().int().min(1).max(100_000_000).optional(),
    costUsd: z.number().positive().max(10_000).optional(),
    seconds: z
      .number()
      .int()
      .min(1)
      .max(24 * 3600)
      .optional(),
  })
  .strict();
export type TurnBudgetSettings = z.infer<typeof TurnBudgetSettings>;

/** A model a step may be routed to: a provider and one of its models. */
export const RouteModel = z
  .object({
    provider: z.enum(["anthropic", "openai", "gemini", "ollama"]),
    model: z.string().min(1).max(200),
  })
  .strict();
export type RouteModel = z.infer<typeof RouteModel>;

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
    // How long a tool call waits for the answer to its server's question (default: 10 min).
    elicitationTimeoutSeconds: z
      .number()
      .int()
      .min(1)
      .max(24 * 3600)
      .optional(),
    // What one turn may use before it is wrapped up (over the operator's defaults).
    budgets: TurnBudgetSettings.optional(),
    // The model's context window in tokens, when it differs from the built-in table (an Ollama
    // model run with a larger num_ctx, a fine-tune): the history is fitted within it.
    contextWindow: z.number().int().min(1_000).max(10_000_000).optional(),
    // Most characters of text and reasoning one turn may stream (default 60 000).
    answerCapChars: z.number().int().min(1_000).max(1_000_000).optional(),
    // Most tools offered in one step (default 40); above it, the most relevant and find_tools.
    maxToolsPerStep: z.number().int().min(2).max(500).optional(),
    // How the model calls tools: natively, or with tool-call blocks in its text (models without
    // native tools). Unset: blocks for models known to lack native tools.
    toolCalling: z.enum(["native", "prompt"]).optional(),
    // The template the conversation was started from: its system prompt and starting messages.
    template: TemplateContext.optional(),
    // Models a step falls back to, in order, when the conversation's own provider is down
    // (unreachable, 5xx after the retries, a timeout).
    route: z.array(RouteModel).max(5).optional(),
    // How long a routed step waits for a model to send anything before it falls back
    // (default 60 s): a tunnel can accept the connection and never answer.
    routeTimeoutSeconds: z.number().int().min(1).max(600).optional(),
    // "Local first": steps that call tools go to the route's local model (Ollama) first, the
    // final answer to a cloud model first.
    localFirst: z.boolean().optional(),
    // The model that writes titles and summaries (unset: the cheap model of the first configured
    // provider among the conversation's own and its route's).
    housekeepingModel: RouteModel.optional(),
    // The rolling summary starts once the older messages pass this share of the window (default 25).
    summaryThresholdPercent: z.number().int().min(5).max(90).optional(),
  })
  .strict();
export type ConversationSettings = z.infer<typeof ConversationSettings>;

/** Where a conversation came from, when it is a branch (see branches.ts). */
export const BranchOrigin = z.object({
  conversationId: z.string(),
  messageId: z.string(),
  step: z.number().int().nullable(),
  /** The first message order (seq) that is the branch's own. */
  seq: z.number().int(),
});
export type BranchOrigin = z.infer<typeof BranchOrigin>;

export const Conversation = z.object({
  id: z.string(),
  title: z.string(),
  provider: z.string(),
  model: z.string(),
  mode: ConversationMode,
  settings: ConversationSettings,
  createdAt: z.number(),
  updatedAt: z.number(),
  // Set on a branch: the conversation, message and step it was made from.
  branchedFrom: BranchOrigin.optional(),
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

// The prompts and resources of a conversation's MCP servers (/api/conversations/:id/mcp/...):
// read fresh from each server on every request, so a server's list_changed needs no cache to clear.
const ServerName = z.string().min(1).max(100);

/** Why one server's part of a listing is missing; the other servers still answer. */
export const McpCatalogProblem = z.object({
  server: z.string(),
  code: z.string(),
  message: z.string(),
});
export type McpCatalogProblem = z.infer<typeof McpCatalogProblem>;

export const McpPromptInfo = z.object({
  server: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z.array(
    z.object({
      name: z.string(),
      description: z.string().optional(),
      required: z.boolean().optional(),
    }),
  ),
  /** The server answers completion/complete, so arguments can be suggested as the user types. */
  completes: z.boolean(),
});
export type McpPromptInfo = z.infer<typeof McpPromptInfo>;

export const McpPromptList = z.object({
  items: z.array(McpPromptInfo),
  problems: z.array(McpCatalogProblem),
});
export type McpPromptList = z.infer<typeof McpPromptList>;

/** Largest value of one prompt argument, template variable or completion input. */
export const MAX_MCP_ARGUMENT_CHARS = 4000;
const ArgumentValues = z.record(z.string().min(1).max(200), z.string().max(MAX_MCP_ARGUMENT_CHARS));

export const McpPromptRequest = z
  .object({
    server: ServerName,
    name: z.string().min(1).max(200),
    arguments: ArgumentValues.optional(),
  })
  .strict();
export type McpPromptRequest = z.infer<typeof McpPromptRequest>;

export const McpPromptResult = z.object({
  server: z.string(),
  name: z.string(),
  description: z.string().optional(),
  /** The user-role text of the prompt's messages, joined: what is sent as the user's message. */
  text: z.string(),
  /** What the text leaves out (assistant messages, images, binary resources), in words. */
  omitted: z.array(z.string()),
});
export type McpPromptResult = z.infer<typeof McpPromptResult>;

export const McpCompletionRequest = z
  .object({
    server: ServerName,
    ref: z.discriminatedUnion("type", [
      z.object({ type: z.literal("prompt"), name: z.string().min(1).max(200) }),
      z.object({ type: z.literal("resource"), uriTemplate: z.string().min(1).max(2000) }),
    ]),
    argument: z.object({
      name: z.string().min(1).max(200),
      value: z.string().max(MAX_MCP_ARGUMENT_CHARS),
    }),
    /** Values already chosen for the other arguments (some servers narrow on them). */
    context: ArgumentValues.optional(),
  })
  .strict();
export type McpCompletionRequest = z.infer<typeof McpCompletionRequest>;

export const McpCompletionResult = z.object({
  /** False when the server does not offer completion: no suggestions, and none to wait for. */
  supported: z.boolean(),
  values: z.array(z.string()),
  hasMore: z.boolean(),
  total: z.number().optional(),
});
export type McpCompletionResult = z.infer<typeof McpCompletionResult>;

export const McpResourceInfo = z.object({
  server: z.string(),
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  size: z.number().optional(),
});
export type McpResourceInfo = z.infer<typeof McpResourceInfo>;

export const McpResourceTemplateInfo = z.object({
  server: z.string(),
  uriTemplate: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  /** The names in the template the user fills in, in order. */
  variables: z.array(z.string()),
  completes: z.boolean(),
});
export type McpResourceTemplateInfo = z.infer<typeof McpResourceTemplateInfo>;

export const McpResourceList = z.object({
  resources: z.array(McpResourceInfo),
  templates: z.array(McpResourceTemplateInfo),
  problems: z.array(McpCatalogProblem),
});
export type McpResourceList = z.infer<typeof McpResourceList>;

const ByUri = { server: ServerName, uri: z.string().min(1).max(4000) };
const ByTemplate = {
  server: ServerName,
  uriTemplate: z.string().min(1).max(2000),
  variables: ArgumentValues,
};

/** A resource by its URI, or a template and the values of its variables. */
export const McpResourceTarget = z.union([z.object(ByUri).strict(), z.object(ByTemplate).strict()]);
export type McpResourceTarget = z.infer<typeof McpResourceTarget>;

export const McpResourceContents = z.object({
  server: z.string(),
  uri: z.string(),
  contents: z.array(
    z.union([
      z.object({ uri: z.string(), mimeType: z.string().optional(), text: z.string() }),
      z.object({ uri: z.string(), mimeType: z.string().optional(), blob: z.string() }),
    ]),
  ),
});
export type McpResourceContents = z.infer<typeof McpResourceContents>;

/** Text a resource may put into a message as it is; more (or anything binary) becomes an artifact. */
export const MAX_INLINE_RESOURCE_CHARS = 20_000;

/** What is left of the message's budget for inline text (defaults to the whole budget). */
const InlineBudget = {
  maxInlineChars: z.number().int().min(0).max(MAX_INLINE_RESOURCE_CHARS).optional(),
};
export const McpAttachRequest = z.union([
  z.object({ ...ByUri, ...InlineBudget }).strict(),
  z.object({ ...ByTemplate, ...InlineBudget }).strict(),
]);
export type McpAttachRequest = z.infer<typeof McpAttachRequest>;

export const McpAttachment = z.object({
  server: z.string(),
  uri: z.string(),
  /** What goes into the next message: the text itself, or a note naming the artifact. */
  text: z.string(),
  /** How much of `text` is the resource's own text (counts against the inline budget). */
  inlineChars: z.number(),
  artifacts: z.array(Artifact),
});
export type McpAttachment = z.infer<typeof McpAttachment>;

/** A row of the conversation list; `snippet` is the matching message text when `q` found one. */
export const ConversationListItem = Conversation.extend({
  snippet: z.string().optional(),
  // With `?include=shared`: yours ("owner"), or your role in one shared with you.
  role: z.enum(["owner", "participant", "viewer"]).optional(),
});
export type ConversationListItem = z.infer<typeof ConversationListItem>;

/** A single-use WebSocket ticket: opens one socket on its conversation within 20 s. */
export const SocketTicket = z.object({ ticket: z.string(), expiresAt: z.number() });
export type SocketTicket = z.infer<typeof SocketTicket>;

/**
 * What POST /api/conversations answers: the conversation, and a ticket for its first socket, so
 * the client's next request can be the upgrade itself (no round trip for a ticket).
 */
export const CreatedConversation = Conversation.extend({ socket: SocketTicket });
export type CreatedConversation = z.infer<typeof CreatedConversation>;
