// Our MCP server: one McpServer per request (stateless streamable HTTP), with every tool, prompt
// and resource registered.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { registerChartTools } from "./charts/tools";
import type { McpEnv } from "./env";
import { registerGraphTools } from "./graph/tools";
import { registerLiteratureTools } from "./literature/tools";
import { registerSetLevel } from "./logging/set-level";
import { registerLiteratureReviewPrompt } from "./prompts/literature-review";
import { registerResearchResources } from "./resources/research-resources";
import { registerTrialTools } from "./trials/tools";

export function createServer(env: McpEnv): McpServer {
  const server = new McpServer(
    { name: "thinking-chat-tools", version: "0.1.0" },
    { capabilities: { logging: {}, tools: {} } },
  );
  registerGraphTools(server, env);
  registerLiteratureTools(server, env);
  registerTrialTools(server, env);
  registerChartTools(server);
  registerLiteratureReviewPrompt(server);
  registerResearchResources(server, env);
  registerSetLevel(server, env);
  // The SDK advertises listChanged on its own; a stateless server has no stream to send it on
  // (and its lists never change at run time), so it says so. Nor can it notify subscribers.
  server.server.registerCapabilities({
    tools: { listChanged: false },
    prompts: { listChanged: false },
    resources: { listChanged: false },
  });
  return server;
}
