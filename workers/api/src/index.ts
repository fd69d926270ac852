// The API worker: REST, realtime (WebSocket, SSE) and the static web client.
import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "./app-types";
import { requireUser } from "./auth/middleware";
import { createDb } from "./db/client";
import { ApiError, errorResponse } from "./http/errors";
import { artifactRoutes } from "./routes/artifacts";
import { conversationRoutes } from "./routes/conversations";
import { mcpServerRoutes } from "./routes/mcp-servers";
import { providerRoutes } from "./routes/providers";
import { realtimeRoutes } from "./routes/realtime";
import { sessionRoutes } from "./routes/session";
import { approvalRoutes } from "./routes/approvals";
import { toolPolicyRoutes } from "./routes/tool-policies";

export { Conversation } from "../../../durable-objects/conversation/conversation";

const app = new Hono<AppEnv>();

app.onError((err, c) => errorResponse(c, err));
app.notFound((c) =>
  errorResponse(
    c,
    new ApiError(404, "not_found", `No route for ${c.req.method} ${new URL(c.req.url).pathname}.`),
  ),
);

app.use("/api/*", async (c, next) => {
  c.set("db", createDb(c.env.DB));
  await next();
});
const withSecureHeaders = secureHeaders({ crossOriginResourcePolicy: "same-origin" });
// A WebSocket handshake answer comes from the DO with headers that cannot be changed.
app.use("/api/*", (c, next) =>
  c.req.header("upgrade")?.toLowerCase() === "websocket" ? next() : withSecureHeaders(c, next),
);

app.get("/api/health", (c) => c.json({ ok: true }));
app.route("/api/session", sessionRoutes);
// Realtime routes authenticate on their own (the WebSocket handshake takes tickets and cookies).
app.route("/api/conversations", realtimeRoutes);
app.use("/api/conversations/*", requireUser);
app.use("/api/conversations", requireUser);
app.use("/api/artifacts/*", requireUser);
app.use("/api/mcp-servers/*", requireUser);
app.use("/api/mcp-servers", requireUser);
app.use("/api/providers", requireUser);
app.route("/api/conversations", conversationRoutes);
app.route("/api/artifacts", artifactRoutes);
app.route("/api/mcp-servers", mcpServerRoutes);
app.route("/api/providers", providerRoutes);
app.route("/api/conversations", approvalRoutes);
app.use("/api/tool-policies", requireUser);
app.route("/api/tool-policies", toolPolicyRoutes);

export default app;
