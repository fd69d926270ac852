// The API worker's routes: REST, realtime (WebSocket, SSE) and the OpenAPI document. index.ts
// loads this module on the worker's first request.
import { Hono } from "hono";
import { CALLBACK_PATH } from "../../../durable-objects/mcp/oauth/client-metadata";
import type { AppEnv } from "./app-types";
import { requireUser } from "./auth/middleware";
import { createDb } from "../../../shared/db/client";
import { allowedMethodsOf } from "./http/allowed-methods";
import { ApiError, errorResponse } from "./http/errors";
import { requestLog } from "./http/request-log";
import { secureApiHeaders } from "./http/secure-headers";
import { RATE_LIMITS } from "../../../shared/rate-limit/limits";
import { byAddress, byUser, rateLimit } from "./rate-limit/middleware";
import { artifactRoutes } from "./routes/artifacts";
import { conversationRoutes } from "./routes/conversations";
import { mcpOauthRoutes } from "./routes/mcp-oauth";
import { mcpServerSignInRoutes } from "./routes/mcp-server-sign-in";
import { mcpServerRoutes } from "./routes/mcp-servers";
import { providerRoutes } from "./routes/providers";
import { realtimeRoutes } from "./routes/realtime";
import { allSessionsRoutes, sessionRoutes } from "./routes/session";
import { tokenRoutes } from "./routes/tokens";
import { approvalRoutes } from "./routes/approvals";
import { elicitationRoutes } from "./routes/elicitations";
import { toolPolicyRoutes } from "./routes/tool-policies";
import { mcpCatalogRoutes } from "./routes/mcp-catalog";
import { conversationUsageRoutes, userUsageRoutes } from "./routes/usage";
import { requireBindings } from "./config/required-bindings";
import { requireSecrets } from "./config/required-secrets";
import { openAiRoutes } from "./openai/routes";
import { serveOpenApi } from "./openapi/document";
import { auditRoutes } from "./routes/audit";
import { exportRoutes } from "./routes/export";
import { timingsRoutes } from "./routes/timings";
import { templateRoutes } from "./routes/templates";
import { attachmentRoutes } from "./routes/attachments";
import { branchRoutes } from "./routes/branches";
import {
  publicShareRoutes,
  sharedWithMeRoutes,
  sharingRoutes,
  userDirectoryRoutes,
} from "./routes/sharing";
import { attachmentLinkRoutes } from "./routes/attachment-links";

const app = new Hono<AppEnv>();

app.onError((err, c) => errorResponse(c, err));
const allowedMethods = allowedMethodsOf(app);
app.notFound((c) => {
  const path = new URL(c.req.url).pathname;
  const allowed = allowedMethods(path);
  if (allowed.length === 0)
    return errorResponse(
      c,
      new ApiError(404, "not_found", `No route for ${c.req.method} ${path}.`),
    );
  const methods = allowed.join(", ");
  return errorResponse(
    c,
    new ApiError(
      405,
      "method_not_allowed",
      `${path} does not take ${c.req.method}; it takes ${methods}.`,
      undefined,
      { Allow: methods },
    ),
  );
});

// A worker missing a binding or (deployed) a secret refuses everything, and says which.
app.use("*", requireBindings);
app.use("*", requireSecrets);
app.use("/api/*", requestLog());
app.use("/api/*", async (c, next) => {
  c.set("db", createDb(c.env.DB));
  await next();
});
// The sign-in callback sets its own headers (its popup must keep its opener).
app.use("/api/*", (c, next) => (c.req.path === CALLBACK_PATH ? next() : secureApiHeaders(c, next)));

app.get("/api/health", (c) => c.json({ ok: true }));
app.post("/api/session", rateLimit({ ...RATE_LIMITS.signIn, key: byAddress }));
app.route("/api/session", sessionRoutes);
// Realtime routes authenticate on their own (the WebSocket handshake takes tickets and cookies).
app.route("/api/conversations", realtimeRoutes);
// `/x/*` covers `/x` itself too: one registration per prefix, so a request reads its credential once.
app.use("/api/conversations/*", requireUser);
app.use("/api/artifacts/*", requireUser);
app.use("/api/mcp-servers/*", requireUser);
app.use("/api/providers/*", requireUser);
// Repeating these costs us (a row, an outbound request): each is limited per user.
app.post("/api/conversations", rateLimit({ ...RATE_LIMITS.newConversation, key: byUser }));
app.on(
  "POST",
  ["/api/mcp-servers/test", "/api/mcp-servers/:id/test", "/api/mcp-servers/:id/connect"],
  rateLimit({ ...RATE_LIMITS.connectionTest, key: byUser }),
);
app.post(
  "/api/conversations/:id/branch",
  rateLimit({ ...RATE_LIMITS.newConversation, key: byUser }),
);
app.route("/api/conversations", conversationRoutes);
app.route("/api/artifacts", artifactRoutes);
app.route("/api/mcp-servers", mcpServerRoutes);
app.route("/api/providers", providerRoutes);
app.route("/api/mcp-servers", mcpServerSignInRoutes);
// Reached by a redirect from an authorization server: authenticated by its `state` instead.
app.route("/api/mcp-oauth", mcpOauthRoutes);
app.use("/api/tokens/*", requireUser);
app.use("/api/sessions", requireUser);
app.route("/api/tokens", tokenRoutes);
app.route("/api/sessions", allSessionsRoutes);
app.route("/api/conversations", approvalRoutes);
app.use("/api/tool-policies", requireUser);
app.route("/api/tool-policies", toolPolicyRoutes);
// Prompts and resources of a conversation's MCP servers (behind requireUser, as above).
app.route("/api/conversations", mcpCatalogRoutes);
app.route("/api/conversations", elicitationRoutes);
app.route("/api/conversations", conversationUsageRoutes);
app.use("/api/usage", requireUser);
app.route("/api/usage", userUsageRoutes);
// OpenAI-compatible endpoints for the clients and SDKs people already use (openai/routes.ts).
app.use("/v1/*", async (c, next) => {
  c.set("db", createDb(c.env.DB));
  await next();
});
app.use("/v1/*", secureApiHeaders);
app.use("/v1/*", requireUser);
app.route("/v1", openAiRoutes);
// The OpenAPI document at /api/openapi.json, with every route above described (openapi/).
serveOpenApi(app);
app.route("/api/conversations", auditRoutes);
app.route("/api/conversations", exportRoutes);
app.route("/api/conversations", timingsRoutes);
app.use("/api/templates", requireUser);
app.use("/api/templates/*", requireUser);
app.route("/api/templates", templateRoutes);
// Files for a message (behind requireUser, as every /api/conversations/* route).
app.route("/api/conversations", attachmentRoutes);
app.route("/api/conversations", branchRoutes);
// Sharing (routes/sharing.ts): members and links behind requireUser; a link's snapshot is public.
app.route("/api/conversations", sharingRoutes);
app.use("/api/shared-with-me", requireUser);
app.route("/api/shared-with-me", sharedWithMeRoutes);
app.use("/api/users", requireUser);
app.route("/api/users", userDirectoryRoutes);
app.route("/api/shared", publicShareRoutes);
// Links the model hands to MCP tools: the signature is the credential (no requireUser).
app.route("/api/attachment-links", attachmentLinkRoutes);

export default app;
