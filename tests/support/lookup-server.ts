// An MCP server on 127.0.0.1 with one read-only tool, `lookup`, that counts how often it really
// ran per topic (GET /runs): the witness that a branch reuses results instead of calling again.
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

export async function startLookupServer(): Promise<{ url: string; stop: () => Promise<void> }> {
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

  const http = createServer(async (req, res) => {
    if (req.url === "/runs") {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify(runs));
    }
    // Stateless: every request gets its own server and transport.
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
