// Serves a stateless streamable-HTTP MCP server on 127.0.0.1 (a fresh server per request) and
// answers GET /runs with the caller's run counts: how often each tool really ran.
import { createServer } from "node:http";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

export interface RunningMcpServer {
  url: string;
  stop: () => Promise<void>;
}

export async function serveCountingMcp(
  newServer: () => McpServer,
  runs: Record<string, number>,
): Promise<RunningMcpServer> {
  const http = createServer(async (req, res) => {
    if (req.url === "/runs") {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify(runs));
    }
    const server = newServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const address = http.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stop: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
