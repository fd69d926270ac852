// Shapes of the REST API shared by the worker and the web client.
import { z } from "zod";
import { ConversationMode, ConversationSettings } from "./conversation-settings";

export {
  BUILTIN_SERVER,
  ConversationMode,
  ConversationSettings,
  DEFAULT_MAX_STEPS,
  RouteModel,
  TurnBudgetSettings,
} from "./conversation-settings";

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
  /**
   * OpenAI only: OPENAI_BASE_URL points at an OpenAI-compatible server, not OpenAI's own API, and
   * such a server is sent no reasoning effort.
   */
  compatibleServer: z.boolean().optional(),
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

/** An earlier content of a text artifact, kept when a save replaced it. */
export const ArtifactVersion = z.object({
  id: z.string(),
  artifactId: z.string(),
  title: z.string(),
  size: z.number(),
  /** When this content was saved (the artifact's updatedAt then). */
  savedAt: z.number(),
  content: z.string().optional(),
});
export type ArtifactVersion = z.infer<typeof ArtifactVersion>;

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
