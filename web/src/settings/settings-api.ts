// REST calls of the settings panel: the conversation's settings, the user's MCP server registry
// and "test the connection". Answers are parsed with zod; failures are ApiFailure (../api).
import { z } from "zod";
import {
  Conversation,
  type ConversationSettings,
  McpConnectResult,
  McpServer,
  McpServerTest,
} from "../../../durable-objects/protocol/rest";
import { ToolPolicies, type ToolPolicy } from "../../../durable-objects/protocol/tool-policy";
import { ProvidersHealth } from "../../../durable-objects/protocol/provider-health";
import { apiRequest } from "../api";

const UserToolPolicies = z.object({ policies: ToolPolicies });

export interface ConversationPatch {
  provider?: string;
  model?: string;
  settings?: ConversationSettings;
}

export interface NewMcpServer {
  name: string;
  url: string;
  headers?: Record<string, string>;
}

export const settingsApi = {
  updateConversation: (id: string, patch: ConversationPatch) =>
    apiRequest(Conversation, `/api/conversations/${id}`, { method: "PATCH", json: patch }),
  mcpServers: () => apiRequest(z.object({ items: z.array(McpServer) }), "/api/mcp-servers"),
  addMcpServer: (body: NewMcpServer) =>
    apiRequest(McpServer, "/api/mcp-servers", { method: "POST", json: body }),
  /** Changes a saved server's options (enabled, timeout). */
  updateMcpServer: (id: string, patch: { enabled?: boolean; timeoutMs?: number }) =>
    apiRequest(McpServer, `/api/mcp-servers/${id}`, { method: "PATCH", json: patch }),
  removeMcpServer: (id: string) =>
    apiRequest(z.undefined(), `/api/mcp-servers/${id}`, { method: "DELETE" }),
  /** A saved server, tested with its real header values (they never come back to us). */
  testMcpServer: (id: string) =>
    apiRequest(McpServerTest, `/api/mcp-servers/${id}/test`, { method: "POST" }),
  /** A server from the add form, before it is saved. */
  testMcpUrl: (url: string, headers: Record<string, string>) =>
    apiRequest(McpServerTest, "/api/mcp-servers/test", {
      method: "POST",
      json: { url, ...(Object.keys(headers).length > 0 && { headers }) },
    }),
  /** Starts an OAuth sign-in; the answer says where to send the browser. */
  connectMcpServer: (
    id: string,
    body: { display: "popup" | "redirect"; clientId?: string; clientSecret?: string },
  ) =>
    apiRequest(McpConnectResult, `/api/mcp-servers/${id}/connect`, { method: "POST", json: body }),
  /** Forgets (and revokes where possible) this user's sign-in to the server. */
  disconnectMcpServer: (id: string) =>
    apiRequest(z.object({ revoked: z.boolean() }), `/api/mcp-servers/${id}/disconnect`, {
      method: "POST",
    }),
  /** Checks every configured model provider now (GET /api/providers/health). */
  providersHealth: () => apiRequest(ProvidersHealth, "/api/providers/health"),
  /** The user's own approval policies, for all their conversations. */
  toolPolicies: () => apiRequest(UserToolPolicies, "/api/tool-policies"),
  /** Sets (null: removes) the user's policy for a server's tools (tool omitted) or one tool. */
  setToolPolicy: (server: string, tool: string | undefined, policy: ToolPolicy | null) =>
    apiRequest(UserToolPolicies, "/api/tool-policies", {
      method: "PUT",
      json: { server, ...(tool !== undefined && { tool }), policy },
    }),
  /** Our own built-in server (mcp-remote). */
  testBuiltinServer: () =>
    apiRequest(McpServerTest, "/api/mcp-servers/builtin/test", { method: "POST" }),
};
