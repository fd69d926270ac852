// A misbehaving "MCP server" on 127.0.0.1: /hang never answers, /garbage answers with HTML,
// /old-protocol answers initialize with a protocol version nobody speaks any more, and
// /redirect/<status>?to=<url> redirects (to another origin, for the credential tests).
// /<channel>/mcp is a real MCP server whose tools misbehave during a call (see faultyTools), and
// /<channel>/mcp-resumable the same with resumable streams (an event store: every stream starts
// with an event id, so a client may reconnect to it), and /<channel>/mcp-resumable-no-get with
// resumable streams but no GET (405), so no stream can actually be resumed. Each channel is its own server, so tests
// do not share state; GET /<channel>/runs tells how often each tool really ran.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { LLMock } from "@copilotkit/aimock";
import { InMemoryEventStore } from "@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

interface Channel {
  sessions: Map<string, StreamableHTTPServerTransport>;
  /** The responses still open, per session: a crash ends them all. */
  open: Map<string, Set<ServerResponse>>;
  runs: Record<string, number>;
  /** Set by `break_list`: tools/list is answered 502 from then on. */
  listBroken?: boolean;
}

/**
 * The tools of /<channel>/mcp:
 * - `crash_read` (read-only): 200 ms into the call the server drops every connection of the
 *   session, the call's response stream among them, and never answers;
 * - `bad_shape` (read-only): answers with a result whose `content` is a string;
 * - `wipe` (destructive, so it asks for approval);
 * - `polled_read` (read-only): on a resumable channel, closes the call's stream at once (as a
 *   server that wants the client to poll does) and answers 300 ms later, on the resumed stream;
 * - `vanish_read` (read-only): 200 ms into the call the server drops every connection of the
 *   session and forgets the session (as a server restarted by a deploy does), so a resumption
 *   is refused with 404, and never answers;
 * - `strict_read` (read-only): every call is refused with a JSON-RPC error -32602 (invalid
 *   params), as a server that checks arguments before running its tool answers;
 * - `ok_read` (read-only): answers "All fine.";
 * - `break_list` (read-only): says the tool list changed (notifications/tools/list_changed, on
 *   the call's stream), and from then on answers tools/list with HTTP 502.
 */
function faultyTools(channel: Channel, session: () => string | undefined): McpServer {
  const server = new McpServer({ name: "faulty", version: "1.0.0" });
  const count = (key: string) => (channel.runs[key] = (channel.runs[key] ?? 0) + 1);
  const readOnly = { readOnlyHint: true };
  server.registerTool(
    "crash_read",
    { description: "Reads, then the server dies.", annotations: readOnly },
    async () => {
      count("crash_read");
      const sid = session();
      setTimeout(() => {
        for (const res of channel.open.get(sid ?? "") ?? []) res.destroy();
      }, 200);
      await new Promise((resolve) => setTimeout(resolve, 5000));
      return { content: [{ type: "text", text: "never sent" }] };
    },
  );
  // Registered so that it is listed; its calls are answered before they reach the server.
  server.registerTool(
    "bad_shape",
    { description: "Answers with a malformed result.", annotations: readOnly },
    async () => ({ content: [{ type: "text", text: "unreached" }] }),
  );
  // Registered so that it is listed; its calls are refused before they reach the server.
  server.registerTool(
    "strict_read",
    { description: "Refuses every call.", annotations: readOnly },
    async () => ({ content: [{ type: "text", text: "unreached" }] }),
  );
  server.registerTool(
    "break_list",
    { description: "Changes the tool list, which then fails.", annotations: readOnly },
    async (extra) => {
      count("break_list");
      channel.listBroken = true;
      await extra.sendNotification({ method: "notifications/tools/list_changed" });
      return { content: [{ type: "text", text: "List broken." }] };
    },
  );
  server.registerTool("ok_read", { description: "Works.", annotations: readOnly }, async () => {
    count("ok_read");
    return { content: [{ type: "text", text: "All fine." }] };
  });
  server.registerTool(
    "wipe",
    {
      description: "Wipes for good.",
      inputSchema: { what: z.string() },
      annotations: { readOnlyHint: false, destructiveHint: true },
    },
    async ({ what }) => {
      count(`wipe:${what}`);
      return { content: [{ type: "text", text: `Wiped ${what}` }] };
    },
  );
  server.registerTool(
    "vanish_read",
    { description: "Reads, then the server restarts.", annotations: readOnly },
    async () => {
      count("vanish_read");
      const sid = session() ?? "";
      setTimeout(() => {
        channel.sessions.delete(sid);
        for (const res of channel.open.get(sid) ?? []) res.destroy();
      }, 200);
      await new Promise((resolve) => setTimeout(resolve, 5000));
      return { content: [{ type: "text", text: "never sent" }] };
    },
  );
  server.registerTool(
    "polled_read",
    { description: "Answers on a resumed stream.", annotations: readOnly },
    async (extra) => {
      count("polled_read");
      extra.closeSSEStream?.();
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { content: [{ type: "text", text: "Polled result arrived" }] };
    },
  );
  return server;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString();
  try {
    return raw ? (JSON.parse(raw) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

async function serveFaultyMcp(
  channel: Channel,
  resumable: boolean,
  noGet: boolean,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const body = await readBody(req);
  const message = body as { method?: string; id?: number; params?: { name?: string } } | undefined;
  if (message?.method === "tools/call" && message.params?.name === "bad_shape") {
    channel.runs.bad_shape = (channel.runs.bad_shape ?? 0) + 1;
    res.writeHead(200, { "content-type": "application/json" });
    return void res.end(
      JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { content: "oops" } }),
    );
  }
  if (message?.method === "tools/call" && message.params?.name === "strict_read") {
    channel.runs.strict_read = (channel.runs.strict_read ?? 0) + 1;
    res.writeHead(200, { "content-type": "application/json" });
    const error = { code: -32602, message: "Invalid arguments: `query` is required" };
    return void res.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, error }));
  }
  if (channel.listBroken && message?.method === "tools/list") {
    res.writeHead(502, { "content-type": "text/html" });
    return void res.end("<html><body>Bad gateway</body></html>");
  }
  // A server that closes streams for polling but takes no GET: resumption is refused.
  if (noGet && req.method === "GET") {
    res.writeHead(405, { allow: "POST, DELETE" });
    return void res.end();
  }
  const sid = req.headers["mcp-session-id"] as string | undefined;
  let transport = sid ? channel.sessions.get(sid) : undefined;
  if (sid && !transport) {
    res.writeHead(404, { "content-type": "application/json" });
    return void res.end(
      JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32001, message: "No session" } }),
    );
  }
  if (sid) {
    const open = channel.open.get(sid) ?? new Set<ServerResponse>();
    channel.open.set(sid, open);
    open.add(res);
    res.on("close", () => open.delete(res));
  }
  if (!transport) {
    const t: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void channel.sessions.set(id, t),
      ...(resumable && { eventStore: new InMemoryEventStore(), retryInterval: 100 }),
    });
    transport = t;
    await faultyTools(channel, () => t.sessionId).connect(t);
  }
  await transport.handleRequest(req, res, body);
}

/** The model's side of the tests of tests/support/faulty-server.ts (mcp-call-faults.test.ts). */
export function addFaultyServerFixtures(mock: LLMock): void {
  const call = (id: string, name: string, args = "{}") => ({
    toolCalls: [{ id, name, arguments: args }],
  });
  // The failure limit (mcp-failure-limit.test.ts): calls chained one step after another, before
  // the answer to any tool result below.
  const then = (user: RegExp, after: string, next: ReturnType<typeof call>) =>
    mock.on({ userMessage: user, toolCallId: after }, next);
  then(/^faulty limit twice please$/, "fl-a1", call("fl-a2", "faulty-limit__crash_read"));
  then(/^faulty limit again please$/, "fl-b1", call("fl-b2", "faulty-limit__crash_read"));
  // A server skipped mid-turn, then the tool list read again (another server's tools changed):
  // the model calls the skipped server's tool anyway.
  mock.on(
    { userMessage: /^faulty rebuild please$/, toolCallId: "fr-4" },
    call("fr-5", "faulty-rebuild__ok_read"),
  );
  // A server whose tool list fails when read again mid-turn: its tools were offered a step before.
  mock.on(
    { userMessage: /^faulty relist please$/, toolCallId: "fx-1" },
    call("fx-2", "faulty-relist__ok_read"),
  );
  mock.on(
    { userMessage: /^faulty shapes please$/, toolCallId: "fm-3" },
    call("fm-4", "faulty-shapes__ok_read"),
  );
  mock.on(
    { userMessage: /^faulty skipped wipe please$/, toolCallId: "fk-3" },
    call("fk-4", "faulty-skipwipe__wipe", '{"what":"drafts"}'),
  );
  mock.on(
    { userMessage: /^faulty strict please$/, toolCallId: "fs3" },
    call("fs4", "faulty-strict__ok_read"),
  );
  // Whatever the call answered, the model then answers in words (no second call).
  mock.on(
    { userMessage: /^faulty .* please$/, hasToolResult: true },
    { content: "Done with the faulty server." },
  );
  mock.onMessage(/^faulty shapes please$/, {
    toolCalls: ["fm-1", "fm-2", "fm-3"].map((id) => ({
      id,
      name: "faulty-shapes__bad_shape",
      arguments: `{"n":"${id}"}`,
    })),
  });
  mock.onMessage(/^faulty rebuild please$/, {
    toolCalls: [
      ...["fr-1", "fr-2", "fr-3"].map((id) => ({
        id,
        name: "faulty-rebuild__bad_shape",
        arguments: `{"n":"${id}"}`,
      })),
      { id: "fr-4", name: "changing-rebuild__add_tool", arguments: "{}" },
    ],
  });
  mock.onMessage(/^faulty relist please$/, call("fx-1", "faulty-relist__break_list"));
  mock.onMessage(/^faulty back please$/, {
    toolCalls: ["fb-1", "fb-2", "fb-3"].map((id) => ({
      id,
      name: "faulty-back__bad_shape",
      arguments: `{"n":"${id}"}`,
    })),
  });
  mock.onMessage(/^faulty back again please$/, call("fb-4", "faulty-back__ok_read"));
  mock.onMessage(/^faulty skipped wipe please$/, {
    toolCalls: ["fk-1", "fk-2", "fk-3"].map((id) => ({
      id,
      name: "faulty-skipwipe__bad_shape",
      arguments: `{"n":"${id}"}`,
    })),
  });
  mock.onMessage(/^faulty strict please$/, {
    toolCalls: ["fs1", "fs2", "fs3"].map((id) => ({
      id,
      name: "faulty-strict__strict_read",
      arguments: `{"n":"${id}"}`,
    })),
  });
  mock.onMessage(/^faulty limit twice please$/, call("fl-a1", "faulty-limit__crash_read"));
  mock.onMessage(/^faulty limit again please$/, call("fl-b1", "faulty-limit__crash_read"));
  mock.onMessage(/^faulty edited please$/, call("fe1", "faulty-limit__ok_read"));
  mock.onMessage(/^faulty crash please$/, call("fc1", "faulty-crash__crash_read"));
  mock.onMessage(/^faulty bad shape please$/, call("fb1", "faulty-shape__bad_shape"));
  mock.onMessage(/^faulty polled read please$/, call("fp1", "faulty-polled__polled_read"));
  mock.onMessage(/^faulty vanish please$/, call("fv1", "faulty-vanish__vanish_read"));
  mock.onMessage(/^faulty unresumable please$/, call("fu1", "faulty-unresumable__polled_read"));
  mock.onMessage(/^faulty wipe please$/, call("fw1", "faulty-wipe__wipe", '{"what":"drafts"}'));
}

export async function startFaultyServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const hanging = new Set<ServerResponse>();
  const channels = new Map<string, Channel>();
  const channelOf = (name: string): Channel => {
    let c = channels.get(name);
    if (!c) channels.set(name, (c = { sessions: new Map(), open: new Map(), runs: {} }));
    return c;
  };
  const server = createServer((req, res) => {
    if (req.url?.startsWith("/hang")) {
      hanging.add(res);
      return;
    }
    const url = new URL(req.url ?? "/", "http://x");
    const mcp = /^\/([\w-]+)\/(mcp|mcp-resumable|mcp-resumable-no-get|runs)$/.exec(url.pathname);
    if (mcp?.[2] === "runs") {
      res.writeHead(200, { "content-type": "application/json" });
      return void res.end(JSON.stringify(channelOf(mcp[1]!).runs));
    }
    if (mcp) {
      const channel = channelOf(mcp[1]!);
      const resumable = mcp[2]!.startsWith("mcp-resumable");
      const noGet = mcp[2] === "mcp-resumable-no-get";
      return void serveFaultyMcp(channel, resumable, noGet, req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    }
    const redirect = /^\/redirect\/(\d{3})$/.exec(url.pathname);
    if (redirect) {
      res.writeHead(Number(redirect[1]), { location: url.searchParams.get("to") ?? "/" });
      return void res.end();
    }
    if (url.pathname === "/old-protocol" && req.method === "POST") {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const message = JSON.parse(body) as { id?: number };
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            jsonrpc: "2.0",
            id: message.id,
            result: {
              protocolVersion: "2023-01-01",
              capabilities: { tools: {} },
              serverInfo: { name: "old", version: "0.1.0" },
            },
          }),
        );
      });
      return;
    }
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<html><body>Definitely not JSON-RPC</body></html>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
