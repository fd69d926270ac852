// An MCP server on 127.0.0.1 with a destructive tool (it asks for approval by default) and a
// read-only one (it runs at once). GET /runs tells how often each tool really ran.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { type RunningMcpServer, serveCountingMcp } from "./counting-mcp-server";

export async function startApprovalServer(): Promise<RunningMcpServer> {
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

  return serveCountingMcp(newServer, runs);
}
