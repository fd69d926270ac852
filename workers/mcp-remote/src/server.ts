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
import type { InputSchema } from "./jsonrpc/invalid-arguments";
import { z } from "zod";

const toolSchemas = new WeakMap<McpServer, ReadonlyMap<string, InputSchema>>();

/** The tools `server` offers: tools/call naming any other is a protocol error (-32602). */
export const toolNamesOf = (server: McpServer): ReadonlySet<string> =>
  new Set(toolSchemas.get(server)?.keys());

/** The input schema of each of `server`'s tools that declares one. */
export const inputSchemasOf = (server: McpServer): ReadonlyMap<string, InputSchema> =>
  toolSchemas.get(server) ?? new Map();

export function createServer(env: McpEnv): McpServer {
  const server = new McpServer(
    { name: "thinking-chat-tools", version: "0.1.0" },
    { capabilities: { logging: {}, tools: {} } },
  );
  // Noted as they are registered: the SDK keeps its list private. A tool without an input
  // schema takes any arguments (its entry is an empty shape that lets everything through).
  const schemas = new Map<string, InputSchema>();
  const register = server.registerTool.bind(server);
  server.registerTool = ((
    name: string,
    config: { inputSchema?: InputSchema },
    ...rest: unknown[]
  ) => {
    schemas.set(name, config.inputSchema ?? z.unknown());
    return (register as (...args: unknown[]) => unknown)(name, config, ...rest);
  }) as typeof server.registerTool;
  toolSchemas.set(server, schemas);
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
