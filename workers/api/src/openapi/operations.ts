// What each route of the API worker does, described from the zod schemas it speaks. Every route
// must have an entry here: openapi.test.ts fails on one that is missing. Keys are
// "<METHOD> <path>" in Hono's path syntax.
import { z } from "zod";
import { MessagePage } from "../../../../durable-objects/protocol/messages";
import { AlternativesList, BranchRequest } from "../../../../durable-objects/protocol/branches";
import {
  Artifact,
  ArtifactVersion,
  Conversation,
  ConversationListItem,
  CreatedConversation,
  McpAttachment,
  McpAttachRequest,
  McpCompletionRequest,
  McpCompletionResult,
  McpConnectResult,
  McpPromptList,
  McpPromptRequest,
  McpPromptResult,
  McpResourceContents,
  McpResourceList,
  McpResourceTarget,
  McpServer,
  McpServerTest,
  ProviderInfo,
} from "../../../../durable-objects/protocol/rest";
import {
  SavedTemplate,
  Template,
  TemplateInput,
  TemplatePatch,
} from "../../../../durable-objects/protocol/templates";
import {
  AddMember,
  CreateShareLink,
  MemberList,
  SharedConversation,
  SharedSnapshot,
  ShareLink,
  UserRef,
} from "../../../../durable-objects/protocol/sharing";
import { AttachmentLimits } from "../../../../durable-objects/protocol/attachments";
import { ConversationTimings } from "../../../../durable-objects/protocol/timings";
import { ConversationUsage, UserUsage } from "../../../../durable-objects/protocol/usage";
import { ProvidersHealth } from "../../../../durable-objects/protocol/provider-health";
import { ChatRequest } from "../../../../durable-objects/protocol/sse";
import { ApprovalAnswer } from "../../../../durable-objects/protocol/wire";
import { ModelObject } from "../openai/models";
import { ChatCompletionRequest } from "../openai/request";
import { ResponsesRequest } from "../openai/responses-request";
import { ElicitationAnswer } from "../../../../durable-objects/protocol/elicitation";
import { PatchBody as ArtifactPatch } from "../routes/artifacts";
import {
  CreateFromTemplateBody as NewConversation,
  PatchBody as ConversationPatch,
} from "../routes/conversations";
import { ConnectBody } from "../routes/mcp-server-sign-in";
import {
  CreateBody as NewMcpServer,
  PatchBody as McpServerPatch,
  TestBody as McpServerTestRequest,
} from "../routes/mcp-servers";
import { SignIn } from "../routes/session";
import { PolicyChange } from "../routes/tool-policies";
import {
  body,
  conflict,
  errorAnswer,
  ERRORS,
  eventStream,
  FORBIDDEN,
  FORBIDDEN_FORMER_MEMBER,
  items,
  json,
  JSON_BODY_ERRORS,
  noContent,
  type Operation,
} from "./schema-helpers";

const op = (
  tag: string,
  summary: string,
  responses: Operation["responses"],
  extra: Operation = {},
) =>
  ({ tags: [tag], summary, responses: { ...responses, ...ERRORS }, ...extra }) satisfies Operation;

/** The OpenAI-compatible routes' X-Conversation-Id header; `otherwise` says what happens without it. */
const conversationHeader = (otherwise: string) => ({
  in: "header" as const,
  name: "X-Conversation-Id",
  required: false,
  schema: { type: "string" as const },
  description: `An existing conversation of yours or shared with you as a participant; ${otherwise}.`,
});

/** The OpenAI-compatible routes' Idempotency-Key header (openai/idempotency.ts). */
const idempotencyHeader = {
  in: "header" as const,
  name: "Idempotency-Key",
  required: false,
  schema: { type: "string" as const, minLength: 1, maxLength: 255, pattern: "^[ -~]+$" },
  description:
    "A key of yours for this request: resent with the same key within 24 hours, the same request gets the first one's answer (the turn replayed, or followed while it runs) and starts no second turn; another request under a used key gets 409.",
};

/** The OpenAI-compatible routes' 403: the conversation X-Conversation-Id names is not yours to write in. */
const V1_FORBIDDEN = {
  403: errorAnswer(
    "X-Conversation-Id names a conversation shared with you as a viewer, or one you left or whose owner stopped sharing it with you (permission_error; the message says which).",
  ),
};

const Ok = z.object({ ok: z.literal(true) });
const Page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });

const DESCRIBED: Record<string, Operation> = {
  "GET /api/health": op("meta", "Is the worker up", { 200: json(Ok) }, { security: [] }),
  "GET /api/openapi.json": op(
    "meta",
    "This document (OpenAPI 3.1)",
    { 200: { description: "OpenAPI 3.1" } },
    { security: [] },
  ),
  "POST /api/session": op(
    "auth",
    "Trade an API token for a session cookie",
    { 200: { description: "Signed in; Set-Cookie carries the session." } },
    { security: [], requestBody: body(SignIn) },
  ),
  "GET /api/session": op("auth", "Who is signed in", {
    200: { description: "{user: {id, name}}" },
  }),
  "DELETE /api/session": op("auth", "Sign out this session", { 204: noContent }),
  "GET /api/sessions": op("auth", "The browser sessions of the user", {
    200: { description: "{items: [{id, tokenId, createdAt, expiresAt, current}]}" },
  }),
  "DELETE /api/sessions": op("auth", "Sign out everywhere (tokens stay)", { 204: noContent }),
  "GET /api/tokens": op("auth", "The user's API tokens (never the token itself)", {
    200: { description: "{items: [{id, label, createdAt, expiresAt, lastUsedAt, current}]}" },
  }),
  "DELETE /api/tokens/:id": op("auth", "Revoke a token and every session it opened", {
    204: noContent,
  }),
  "GET /api/providers": op("models", "Model providers and their models", {
    200: json(z.object({ providers: z.array(ProviderInfo), hint: z.string().optional() })),
  }),
  "GET /api/conversations": op(
    "conversations",
    "The user's conversations, newest activity first; `q` searches titles and message text; `include=shared` adds those shared with the user, each with `role`",
    { 200: json(Page(ConversationListItem)) },
  ),
  "POST /api/conversations": op(
    "conversations",
    "Start a conversation (with templateId: from a template, its defaults under what you set); `socket` is a ticket for its first WebSocket",
    { 201: json(CreatedConversation, "Created") },
    { requestBody: body(NewConversation) },
  ),
  "GET /api/conversations/:id": op("conversations", "One conversation", {
    200: json(Conversation),
  }),
  "PATCH /api/conversations/:id": op(
    "conversations",
    "Change title, provider, model, mode or settings",
    { 200: json(Conversation) },
    { requestBody: body(ConversationPatch) },
  ),
  "DELETE /api/conversations/:id": op(
    "conversations",
    "Delete a conversation with its messages, artifacts and objects",
    { 204: noContent },
  ),
  "GET /api/conversations/:id/messages": op(
    "conversations",
    "Messages after a sequence number, oldest first; while `nextAfter` is not null, ask again with `?after=<nextAfter>` for the rest",
    { 200: json(MessagePage) },
  ),
  "GET /api/conversations/:id/export": op(
    "conversations",
    "The whole conversation as one file: Markdown (default) or JSON ({exportedAt, conversation, messages, artifacts}, text artifacts with their content)",
    {
      200: {
        description:
          "text/markdown or application/json, with Content-Disposition naming the file after the title",
      },
    },
  ),
  "GET /api/conversations/:id/artifacts": op(
    "artifacts",
    "The conversation's artifacts (metadata)",
    { 200: items(Artifact) },
  ),
  "POST /api/conversations/:id/chat": op(
    "realtime",
    "Send a message; stream its turn",
    { 200: eventStream("The events from the message to the end of its turn.") },
    { requestBody: body(ChatRequest) },
  ),
  "GET /api/conversations/:id/events": op("realtime", "Replay and follow the event log", {
    200: eventStream(
      "The log after Last-Event-ID, then live events until the conversation is idle.",
    ),
  }),
  "POST /api/conversations/:id/ws-ticket": op("realtime", "A single-use WebSocket ticket (20 s)", {
    200: json(z.object({ ticket: z.string(), expiresAt: z.number() })),
  }),
  "GET /api/conversations/:id/ws": op(
    "realtime",
    "Open the conversation's WebSocket (upgrade); with `?new=1` and a fresh UUID as :id, the socket creates the conversation (optional `provider`, `model`, `mode`)",
    {
      101: { description: "Switching protocols; frames are durable-objects/protocol/wire.ts" },
      403: errorAnswer("The Origin header names another site (forbidden_origin)."),
      426: errorAnswer("Not a WebSocket upgrade: open it with a WebSocket client."),
    },
  ),
  "POST /api/conversations/:id/approvals/:approvalId": op(
    "realtime",
    "Approve or deny a parked tool call",
    {
      200: { description: "{approval: {...}}" },
      ...conflict("Already answered or expired"),
    },
    { requestBody: body(ApprovalAnswer) },
  ),
  "POST /api/conversations/:id/elicitations/:elicitationId": op(
    "realtime",
    "Answer an MCP server's question",
    {
      200: { description: "{elicitation: {...}}" },
      ...conflict("Already answered, timed out or withdrawn"),
    },
    { requestBody: body(ElicitationAnswer) },
  ),
  "GET /api/conversations/:id/mcp/prompts": op("mcp", "Prompts of the conversation's MCP servers", {
    200: json(McpPromptList),
    ...FORBIDDEN,
  }),
  "POST /api/conversations/:id/mcp/prompts/get": op(
    "mcp",
    "Fill in a prompt",
    { 200: json(McpPromptResult) },
    { requestBody: body(McpPromptRequest) },
  ),
  "POST /api/conversations/:id/mcp/complete": op(
    "mcp",
    "Completions for a prompt argument or template variable",
    { 200: json(McpCompletionResult) },
    { requestBody: body(McpCompletionRequest) },
  ),
  "GET /api/conversations/:id/mcp/resources": op(
    "mcp",
    "Resources and templates of the conversation's MCP servers",
    { 200: json(McpResourceList), ...FORBIDDEN },
  ),
  "POST /api/conversations/:id/mcp/resources/read": op(
    "mcp",
    "Read a resource",
    { 200: json(McpResourceContents) },
    { requestBody: body(McpResourceTarget) },
  ),
  "POST /api/conversations/:id/mcp/resources/attach": op(
    "mcp",
    "Attach a resource to the conversation",
    { 200: json(McpAttachment) },
    { requestBody: body(McpAttachRequest) },
  ),
  "GET /api/artifacts/:id": op("artifacts", "An artifact, with content for text", {
    200: json(Artifact),
  }),
  "PATCH /api/artifacts/:id": op(
    "artifacts",
    "Edit an artifact's content or title; a changed content keeps the one it replaces as a version",
    {
      200: json(Artifact),
      ...conflict(
        "A binary artifact's content cannot be edited, or it changed since `baseUpdatedAt`",
      ),
    },
    { requestBody: body(ArtifactPatch) },
  ),
  "GET /api/artifacts/:id/versions": op(
    "artifacts",
    "A text artifact's earlier versions, newest first (without content)",
    { 200: json(z.object({ items: z.array(ArtifactVersion) })) },
  ),
  "GET /api/artifacts/:id/versions/:versionId": op(
    "artifacts",
    "One earlier version of an artifact, with its content",
    { 200: json(ArtifactVersion) },
  ),
  "PUT /api/artifacts/:id/pin": op("artifacts", "Pin an artifact", { 200: json(Artifact) }),
  "DELETE /api/artifacts/:id/pin": op("artifacts", "Unpin an artifact", { 200: json(Artifact) }),
  "DELETE /api/artifacts/:id": op("artifacts", "Delete an artifact", { 204: noContent }),
  "GET /api/artifacts/:id/download": op("artifacts", "The artifact's bytes, as an attachment", {
    200: { description: "The bytes, with Content-Disposition and a sandboxing CSP." },
  }),
  "GET /api/mcp-servers": op("mcp", "The user's MCP servers (header values masked)", {
    200: items(McpServer),
  }),
  "POST /api/mcp-servers": op(
    "mcp",
    "Add an MCP server",
    { 201: json(McpServer, "Created"), ...conflict("You already have a server of that name") },
    { requestBody: body(NewMcpServer) },
  ),
  "PATCH /api/mcp-servers/:id": op(
    "mcp",
    "Change an MCP server",
    { 200: json(McpServer), ...conflict("You already have a server of that name") },
    { requestBody: body(McpServerPatch) },
  ),
  "DELETE /api/mcp-servers/:id": op("mcp", "Remove an MCP server", { 204: noContent }),
  "POST /api/mcp-servers/test": op(
    "mcp",
    "Test a server before saving it",
    { 200: json(McpServerTest) },
    { requestBody: body(McpServerTestRequest) },
  ),
  "POST /api/mcp-servers/:id/test": op("mcp", "Test a saved server", { 200: json(McpServerTest) }),
  "POST /api/mcp-servers/builtin/test": op("mcp", "Test our own MCP worker", {
    200: json(McpServerTest),
  }),
  "POST /api/mcp-servers/:id/connect": op(
    "mcp",
    "Sign in to an MCP server (OAuth)",
    { 200: json(McpConnectResult) },
    { requestBody: body(ConnectBody) },
  ),
  "POST /api/mcp-servers/:id/disconnect": op("mcp", "Forget this user's sign-in to a server", {
    200: json(z.object({ revoked: z.boolean() })),
  }),
  "GET /api/mcp-oauth/callback": op(
    "mcp",
    "Where an authorization server sends the user back",
    { 200: { description: "An HTML page that tells the opener and closes." } },
    { security: [] },
  ),
  "GET /api/mcp-oauth/client-metadata.json": op(
    "mcp",
    "Our OAuth Client ID Metadata Document",
    { 200: { description: "Client metadata (JSON)." } },
    { security: [] },
  ),
  "GET /api/tool-policies": op("mcp", "The user's tool approval policies", {
    200: { description: "{policies: {...}}" },
  }),
  "PUT /api/tool-policies": op(
    "mcp",
    "Set or remove a tool approval policy",
    { 200: { description: "{policies: {...}}" } },
    { requestBody: body(PolicyChange) },
  ),
  "GET /api/conversations/:id/usage": op(
    "usage",
    "Tokens and cost of a conversation, in total and per answer (an unpriced model's cost is null; unreportedCalls counts calls whose provider sent no usage report)",
    { 200: json(ConversationUsage), ...FORBIDDEN },
  ),
  "GET /api/usage": op(
    "usage",
    "Your tokens and cost by UTC day and model (?from, ?to as YYYY-MM-DD)",
    { 200: json(UserUsage) },
  ),
  "GET /api/conversations/:id/audit": op(
    "usage",
    "The conversation's audit log as JSON Lines: model requests and responses, tool calls and results, approvals",
    {
      200: { description: "application/x-ndjson, one audit entry per line, oldest first" },
      ...FORBIDDEN,
    },
  ),
  "GET /api/conversations/:id/timings": op(
    "usage",
    "Where each step's time went: queued, model time to first token and stream time, retries and their waits, tool latency per call and per server, checkpoints, pauses",
    { 200: json(ConversationTimings) },
  ),
  "GET /v1/models": op("openai", "OpenAI-compatible: the models", {
    200: json(z.object({ object: z.literal("list"), data: z.array(ModelObject) })),
  }),
  "GET /v1/models/:id": op(
    "openai",
    "OpenAI-compatible: one model, by an id GET /v1/models lists (404 for any other)",
    { 200: json(ModelObject) },
  ),
  "GET /v1/models/:provider/:model": op(
    "openai",
    "OpenAI-compatible: one `<provider>/<model>` model, its slash not encoded (404 unless GET /v1/models lists it)",
    { 200: json(ModelObject) },
  ),
  "POST /v1/chat/completions": op(
    "openai",
    "OpenAI-compatible chat completion (stream or not) as a message in a conversation",
    {
      200: {
        description:
          "A chat.completion, or with stream: true chat.completion.chunk events ending with [DONE]. X-Conversation-Id names the conversation.",
      },
      ...conflict("The Idempotency-Key was used for another request"),
      ...V1_FORBIDDEN,
    },
    {
      requestBody: body(ChatCompletionRequest),
      parameters: [conversationHeader("without it one is created"), idempotencyHeader],
    },
  ),
  "POST /v1/responses": op(
    "openai",
    "OpenAI-compatible Responses API (stream or not) as a message in a conversation",
    {
      200: {
        description:
          "A response object, or with stream: true Responses events from response.created to response.completed (response.failed when the turn fails, response.incomplete when it was cancelled or interrupted). The answer is a message item; reasoning and tool activity are reasoning items. X-Conversation-Id names the conversation; a later request continues it with this response's id as previous_response_id.",
      },
      ...conflict("The Idempotency-Key was used for another request"),
      ...V1_FORBIDDEN,
    },
    {
      requestBody: body(ResponsesRequest),
      parameters: [
        conversationHeader("without it (and without previous_response_id) one is created"),
        idempotencyHeader,
      ],
    },
  ),
  "GET /api/templates": op("templates", "The built-in templates, then the user's own", {
    200: items(Template),
  }),
  "POST /api/templates": op(
    "templates",
    "Create a template; `warnings` names any `{{…}}` in its prompt that is not a variable",
    { 201: json(SavedTemplate, "Created") },
    { requestBody: body(TemplateInput) },
  ),
  "GET /api/templates/:id": op("templates", "One template, built-in or the user's own", {
    200: json(Template),
  }),
  "PATCH /api/templates/:id": op(
    "templates",
    "Change one of your templates (built-ins answer 409); `warnings` as on create",
    { 200: json(SavedTemplate), ...conflict("A built-in template cannot change") },
    { requestBody: body(TemplatePatch) },
  ),
  "DELETE /api/templates/:id": op(
    "templates",
    "Delete one of your templates (built-ins answer 409)",
    { 204: noContent, ...conflict("A built-in template cannot be deleted") },
  ),
  "GET /api/conversations/:id/attachments/limits": op(
    "artifacts",
    "What an attachment may be: the largest file in bytes and the files one message carries",
    { 200: json(AttachmentLimits) },
  ),
  "POST /api/conversations/:id/attachments": op(
    "artifacts",
    "Attach a file (multipart field `file`): kept as an `attachment` artifact to name in a send",
    {
      201: json(z.object({ artifact: Artifact }), "Stored"),
      413: errorAnswer(
        "Over the per-file limit (payload_too_large) or the quota (quota_exceeded).",
      ),
      415: errorAnswer("Not an image, PDF or UTF-8 text; the message names the type found."),
    },
    {
      requestBody: {
        required: true,
        content: {
          "multipart/form-data": {
            schema: {
              type: "object",
              properties: { file: { type: "string", format: "binary" } },
              required: ["file"],
            },
          },
        },
      },
    },
  ),
  "POST /api/conversations/:id/branch": op(
    "conversations",
    "Branch the conversation at a message or tool step; edit a question; regenerate an answer",
    {
      201: json(
        Conversation,
        "The branch (it answers at once when it continues, regenerates or edits)",
      ),
    },
    { requestBody: body(BranchRequest) },
  ),
  "GET /api/conversations/:id/alternatives": op(
    "conversations",
    "The versions of each message across the conversation's branches",
    { 200: json(AlternativesList) },
  ),
  "GET /api/conversations/:id/members": op(
    "sharing",
    "Who the conversation is shared with, its owner and your own role (any member)",
    { 200: json(MemberList) },
  ),
  "PUT /api/conversations/:id/members": op(
    "sharing",
    "Share with a user of this instance (by id or exact name), or change their role (owner)",
    { 200: json(MemberList), ...conflict("Several users have that name: add one by id") },
    { requestBody: body(AddMember) },
  ),
  "DELETE /api/conversations/:id/members/:userId": op(
    "sharing",
    "Stop sharing with a user (owner), or leave (the member); their open sockets close",
    { 204: noContent },
  ),
  "GET /api/conversations/:id/links": op("sharing", "The read-only links not revoked (owner)", {
    200: items(ShareLink),
  }),
  "POST /api/conversations/:id/links": op(
    "sharing",
    "A read-only link to the conversation as it is now (owner)",
    { 201: json(ShareLink, "Created") },
    { requestBody: body(CreateShareLink) },
  ),
  "DELETE /api/conversations/:id/links/:linkId": op("sharing", "Revoke a read-only link (owner)", {
    204: noContent,
  }),
  "GET /api/shared-with-me": op("sharing", "Conversations other people shared with you", {
    200: items(SharedConversation),
  }),
  "GET /api/users": op("sharing", "Users of this instance whose name starts with q", {
    200: items(UserRef),
  }),
  "GET /api/shared/:token": op(
    "sharing",
    "The snapshot a read-only link shows (no sign-in: the signed token is the credential)",
    { 200: json(SharedSnapshot) },
    { security: [] },
  ),
  "GET /api/providers/health": op(
    "models",
    "Check each configured provider now: reachable, latency of the latest checks, Ollama's models",
    { 200: json(ProvidersHealth) },
  ),
  "GET /api/attachment-links/:id": op(
    "artifacts",
    "An attachment's bytes through a short-lived signed link (for MCP tools; no credentials)",
    { 200: { description: "The bytes, as a download." } },
    { security: [] },
  ),
  "GET /api/shared/:token/artifacts/:artifactId/download": op(
    "sharing",
    "The bytes of an artifact a read-only link's snapshot lists (the signed token is the credential)",
    { 200: { description: "The bytes, with Content-Disposition and a sandboxing CSP." } },
    { security: [] },
  ),
};

// Not behind requireUser: no role to fall short and no Origin check.
const WITHOUT_ORIGIN_CHECK = new Set(["POST /api/session", "DELETE /api/session"]);

/**
 * The errors every route of a kind returns, so no entry can forget them: a JSON body's 413 and
 * 415 (parseJsonBody), 403 on a signed-in change (requireUser's Origin check, and roles in a
 * shared conversation) and on any route of one conversation or artifact (a former member). The
 * OpenAI-compatible routes keep their own description.
 */
function withKindErrors(key: string, operation: Operation): Operation {
  const [method, path] = key.split(" ") as [string, string];
  if (path.startsWith("/v1/")) return operation;
  const takesJson = Boolean(
    operation.requestBody && "content" in operation.requestBody
      ? operation.requestBody.content["application/json"]
      : undefined,
  );
  const guarded =
    method !== "GET" && !WITHOUT_ORIGIN_CHECK.has(key) && operation.security?.length !== 0;
  // Every route of one conversation or artifact checks the caller's role there.
  const ofOne = /^\/api\/(conversations|artifacts)\/:id(\/|$)/.test(path);
  return {
    ...operation,
    responses: {
      ...(takesJson && JSON_BODY_ERRORS),
      ...(ofOne && FORBIDDEN_FORMER_MEMBER),
      ...(guarded && FORBIDDEN),
      ...operation.responses,
    },
  };
}

export const OPERATIONS: Record<string, Operation> = Object.fromEntries(
  Object.entries(DESCRIBED).map(([key, operation]) => [key, withKindErrors(key, operation)]),
);
