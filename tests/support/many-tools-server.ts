// MCP servers on 127.0.0.1 with many tools each, for the tool cap and find_tools: `/<name>/mcp`
// serves 150 tools named `<name>_<topic>_<n>` with plain descriptions, and one tool that only a
// search for it finds (`measure_serum_ferritin` on `/lab/mcp`). Calls answer with their name and
// arguments, so a test sees which tool ran.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

export const TOOLS_PER_SERVER = 150;
/** The tool a model has to look for: nothing in the tests' questions is close to it. */
export const HIDDEN_TOOL = {
  name: "measure_serum_ferritin",
  description: "Measures the serum ferritin level of a blood sample.",
};

const TOPICS = ["invoice", "weather", "calendar", "shipment", "playlist", "ticket", "recipe"];
// Annotated as harmless, so calls run without asking for approval.
const harmless = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };

function newServer(name: string): McpServer {
  const server = new McpServer({ name: `many-${name}`, version: "1.0.0" });
  const answer = (tool: string) => async (args: Record<string, unknown>) => ({
    content: [{ type: "text" as const, text: `${tool} ran with ${JSON.stringify(args)}` }],
  });
  for (let i = 1; i < TOOLS_PER_SERVER; i++) {
    const topic = TOPICS[i % TOPICS.length]!;
    const tool = `${name}_${topic}_${i}`;
    server.registerTool(
      tool,
      {
        description: `Looks up ${topic} record number ${i} in the ${name} system.`,
        inputSchema: { id: z.string().optional() },
        annotations: harmless,
      },
      answer(tool),
    );
  }
  // The 150th tool: on /lab/mcp the hidden one, elsewhere one more of the same kind.
  const last = name === "lab" ? HIDDEN_TOOL.name : `${name}_ticket_${TOOLS_PER_SERVER}`;
  server.registerTool(
    last,
    {
      description:
        name === "lab"
          ? HIDDEN_TOOL.description
          : `Looks up the last ticket in the ${name} system.`,
      inputSchema: { sample: z.string().optional() },
      annotations: harmless,
    },
    name === "lab"
      ? async ({ sample }) => ({
          content: [{ type: "text", text: `Ferritin of sample ${sample ?? "?"}: 85 ng/mL` }],
        })
      : answer(last),
  );
  return server;
}

/** `url` is the base: each server is `${url}/<name>/mcp`. */
export async function startManyToolsServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const servers: McpServer[] = [];
  const http = createServer((req, res) => {
    void (async () => {
      const name = /^\/([a-z]+)\/mcp$/.exec(new URL(req.url ?? "/", "http://x").pathname)?.[1];
      if (!name) return void res.writeHead(404).end();
      const id = req.headers["mcp-session-id"];
      let transport = typeof id === "string" ? sessions.get(id) : undefined;
      if (!transport) {
        const server = newServer(name);
        servers.push(server);
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sid) => void sessions.set(sid, created),
        });
        await server.connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res);
    })().catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const address = http.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      for (const s of servers) await s.close().catch(() => undefined);
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
