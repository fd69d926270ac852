// An MCP server on 127.0.0.1 with one read-only tool, `lookup`, that counts how often it really
// ran per topic (GET /runs): the witness that a branch reuses results instead of calling again.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { type RunningMcpServer, serveCountingMcp } from "./counting-mcp-server";

export async function startLookupServer(): Promise<RunningMcpServer> {
  const runs: Record<string, number> = {};

  const newServer = () => {
    const server = new McpServer({ name: "library", version: "1.0.0" });
    server.registerTool(
      "lookup",
      {
        description: "Looks a topic up in the library.",
        inputSchema: { topic: z.string() },
        annotations: { readOnlyHint: true },
      },
      async ({ topic }) => {
        runs[topic] = (runs[topic] ?? 0) + 1;
        return { content: [{ type: "text", text: `Found: ${topic} facts` }] };
      },
    );
    return server;
  };

  return serveCountingMcp(newServer, runs);
}
