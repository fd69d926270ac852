// An MCP server on 127.0.0.1 whose tool list changes: calling `add_tool` adds `new_tool` and
// tells the caller with `notifications/tools/list_changed`, as servers that load tools on demand do.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { McpServer, type RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

export async function startChangingServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  let added = false;
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const live: Array<{ server: McpServer; newTool: RegisteredTool }> = [];

  const newSession = async () => {
    const server = new McpServer(
      { name: "changing", version: "1.0.0" },
      { capabilities: { tools: { listChanged: true } } },
    );
    // Annotated as harmless, so calls run without asking for approval.
    const harmless = { readOnlyHint: false, destructiveHint: false, openWorldHint: false };
    server.registerTool(
      "add_tool",
      { description: "Adds new_tool.", annotations: harmless },
      async (extra) => {
        added = true;
        for (const s of live) s.newTool.enable();
        // Sent on this call's own stream, so a client without a standing GET stream gets it too.
        await extra.sendNotification({ method: "notifications/tools/list_changed" });
        return { content: [{ type: "text", text: "new_tool was added" }] };
      },
    );
    // Registered on every session, enabled once `add_tool` ran: the list the server reports.
    const newTool = server.registerTool(
      "new_tool",
      {
        description: "Exists once add_tool ran.",
        inputSchema: { word: z.string().optional() },
        annotations: harmless,
      },
      async () => ({ content: [{ type: "text", text: "new_tool ran" }] }),
    );
    if (!added) newTool.disable();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    await server.connect(transport);
    live.push({ server, newTool });
    return transport;
  };

  const http = createServer(async (req, res) => {
    const id = req.headers["mcp-session-id"];
    let transport = typeof id === "string" ? sessions.get(id) : undefined;
    transport ??= await newSession();
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const address = http.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stop: async () => {
      for (const s of live) await s.server.close().catch(() => undefined);
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
