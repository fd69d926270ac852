// An MCP server on 127.0.0.1 whose tool list changes: calling `add_tool` adds `new_tool` and
// tells the caller with `notifications/tools/list_changed`, as servers that load tools on demand do.
// Each path prefix is its own server (`/mcp`, `/<channel>/mcp`), so tests do not share state;
// `/<channel>/state` tells a test what the server saw (standing GET streams open, sessions ended)
// and `POST /<channel>/add-tool` changes the tools outside any request, so only a client with a
// standing GET stream hears of it. Channels named `hold-…` also have `hold_step`, which answers
// only once `POST /<channel>/release` was sent: a pause in a turn, for changing Settings mid-turn.
import { randomUUID } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import { McpServer, type RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

export interface ChangingServerState {
  standingStreams: number;
  ended: string[];
  sessions: string[];
  /** Authorization and X-Api-Key values that reached this channel. */
  credentials: string[];
  /** `hold_step` calls that started, in order, with the authorization header each came with. */
  holdCalls: Array<{ n: number; authorization: string | null }>;
}

interface Channel {
  added: boolean;
  sessions: Map<string, StreamableHTTPServerTransport>;
  live: Array<{ server: McpServer; newTool: RegisteredTool }>;
  standing: Set<ServerResponse>;
  ended: string[];
  credentials: string[];
  holdCalls: ChangingServerState["holdCalls"];
  hold: boolean;
  /** Set by `POST /<channel>/release`: `hold_step` calls answer from then on. */
  released: boolean;
}

export async function startChangingServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const channels = new Map<string, Channel>();
  const channelOf = (name: string): Channel => {
    let c = channels.get(name);
    if (!c) {
      c = {
        added: false,
        sessions: new Map(),
        live: [],
        standing: new Set(),
        ended: [],
        credentials: [],
        holdCalls: [],
        // Only channels named hold-… have `hold_step`: the other tests' catalogs stay as they are.
        hold: name.startsWith("/hold-"),
        released: false,
      };
      channels.set(name, c);
    }
    return c;
  };

  const newSession = async (channel: Channel) => {
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
        channel.added = true;
        for (const s of channel.live) s.newTool.enable();
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
    if (!channel.added) newTool.disable();
    // Answers once the test releases the channel: the pause in which a test changes Settings.
    if (channel.hold)
      server.registerTool(
        "hold_step",
        {
          description: "Answers when released.",
          inputSchema: { n: z.number() },
          annotations: harmless,
        },
        async ({ n }, extra) => {
          const auth = extra.requestInfo?.headers.authorization;
          channel.holdCalls.push({ n, authorization: typeof auth === "string" ? auth : null });
          while (!channel.released) await new Promise((r) => setTimeout(r, 20));
          return { content: [{ type: "text", text: `hold_step ${n} done` }] };
        },
      );
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void channel.sessions.set(id, transport),
    });
    await server.connect(transport);
    channel.live.push({ server, newTool });
    return transport;
  };

  const state = (c: Channel): ChangingServerState => ({
    standingStreams: c.standing.size,
    ended: c.ended,
    sessions: [...c.sessions.keys()],
    credentials: c.credentials,
    holdCalls: c.holdCalls,
  });

  const http = createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const channel = channelOf(path.replace(/\/(mcp|state|add-tool|release)$/, ""));
    if (path.endsWith("/state")) return void res.end(JSON.stringify(state(channel)));
    if (path.endsWith("/release")) {
      channel.released = true;
      return void res.end(JSON.stringify(state(channel)));
    }
    if (path.endsWith("/add-tool")) {
      // enable() announces the change to every session, on its standing stream only.
      channel.added = true;
      for (const s of channel.live) s.newTool.enable();
      return void res.end(JSON.stringify(state(channel)));
    }
    for (const name of ["authorization", "x-api-key"]) {
      const value = req.headers[name];
      if (typeof value === "string") channel.credentials.push(value);
    }
    const id = req.headers["mcp-session-id"];
    let transport = typeof id === "string" ? channel.sessions.get(id) : undefined;
    if (req.method === "DELETE" && typeof id === "string") {
      channel.ended.push(id);
      channel.sessions.delete(id);
    }
    if (req.method === "GET" && transport) {
      channel.standing.add(res);
      res.on("close", () => channel.standing.delete(res));
    }
    transport ??= await newSession(channel);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const address = http.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stop: async () => {
      for (const c of channels.values())
        for (const s of c.live) await s.server.close().catch(() => undefined);
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
