// An MCP server on 127.0.0.1 with a destructive tool (it asks for approval by default) and a
// read-only one (it runs at once). GET /runs tells how often each tool really ran.
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

export async function startApprovalServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const runs: Record<string, number> = {};
  const count = (key: string) => (runs[key] = (runs[key] ?? 0) + 1);

  const newServer = () => {
    const server = new McpServer({ name: "notes", version: "1.0.0" });
    server.registerTool(
      "list_notes",
      { description: "Lists the notes.", annotations: { readOnlyHint: true } },
      async () => {
        count("list_notes");
        return { content: [{ type: "text", text: "Notes: old, new" }] };
      },
    );
    server.registerTool(
      "delete_note",
      {
        description: "Deletes a note for good.",
        inputSchema: { name: z.string() },
        annotations: { readOnlyHint: false, destructiveHint: true },
      },
      async ({ name }) => {
        count(`delete_note:${name}`);
        return { content: [{ type: "text", text: `Deleted note ${name}` }] };
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
