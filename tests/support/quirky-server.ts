// An MCP server on 127.0.0.1 that does what real servers do and our other test servers do not:
// it pages its tool list (two tools a page, `many_pieces` last), declares output schemas, answers in many pieces, asks
// the client for sampling and roots it never declared, and honours a cancelled request.
// `/<channel>/mcp` is its own server per channel; `/<channel>/mcp-endless` pages forever (every
// page names a next cursor), `/<channel>/mcp-overlap` repeats on each page the last tool of the
// page before, `/<channel>/mcp-bad-init` answers the handshake with an event stream labelled
// as JSON. `GET /<channel>/state` tells a test what the server saw.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { LLMock } from "@copilotkit/aimock";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

export interface QuirkyServerState {
  /** tools/list requests, one per page. */
  listPages: number;
  /** Calls the server saw cancelled (notifications/cancelled), by tool. */
  cancelled: string[];
  /** Calls that ran to their end, by tool. */
  finished: string[];
  /** How the client answered the requests the server sent it: `method: outcome`. */
  clientAnswers: string[];
}

/** One piece of `many_pieces`: 20 of them are 70,000 characters, over what a model is shown. */
export const PIECE_CHARS = 3_500;
export const PIECES = 20;
export const piece = (i: number) => `[piece ${i}]`.padEnd(PIECE_CHARS, String.fromCharCode(97 + i));

const harmless = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };
const noArgs = { type: "object" as const, properties: {} };
const weatherSchema = {
  type: "object" as const,
  properties: { temperature: { type: "number" }, city: { type: "string" } },
  required: ["temperature", "city"],
};

const TOOLS: Tool[] = [
  {
    name: "weather",
    description: "The weather in Oslo, as data.",
    inputSchema: noArgs,
    outputSchema: weatherSchema,
    annotations: harmless,
  },
  {
    name: "bad_weather",
    description: "The weather, with data that does not fit its own output schema.",
    inputSchema: noArgs,
    outputSchema: weatherSchema,
    annotations: harmless,
  },
  {
    name: "slow_work",
    description: "Works for 20 s, reporting progress every half second.",
    inputSchema: noArgs,
    annotations: harmless,
  },
  {
    name: "ask_client",
    description: "Asks the client for sampling and for its roots.",
    inputSchema: noArgs,
    annotations: harmless,
  },
  ...["json_in_sse", "sse_in_json", "not_json_rpc", "accepted_only"].map((name) => ({
    name,
    description: "Answers in a form the transport does not allow.",
    inputSchema: noArgs,
    annotations: harmless,
  })),
  {
    name: "chatty",
    description: "Works for 1.5 s, logging a line every 150 ms.",
    inputSchema: noArgs,
    annotations: harmless,
  },
  {
    name: "loud",
    description: "Logs 150 lines, the second of them 3 MB, then answers.",
    inputSchema: noArgs,
    annotations: harmless,
  },
  {
    name: "rapid",
    description: "Reports progress 2,000 times in about a second, then answers.",
    inputSchema: noArgs,
    annotations: harmless,
  },
  {
    name: "quick",
    description: "Answers at once.",
    inputSchema: noArgs,
    annotations: harmless,
  },
  {
    name: "documents",
    description: "Answers with embedded documents: titled, named only, and bare.",
    inputSchema: noArgs,
    annotations: harmless,
  },
  {
    name: "many_pieces",
    description: `Answers with ${PIECES} text pieces of ${PIECE_CHARS} characters.`,
    inputSchema: noArgs,
    annotations: harmless,
  },
];
const PAGE = 2;

const DOCUMENTS = [
  {
    type: "resource",
    resource: {
      uri: "mem://notes/1",
      title: "Meeting notes",
      name: "notes-1",
      mimeType: "text/plain",
      text: "We met.",
    },
  },
  {
    type: "resource",
    resource: {
      uri: "mem://notes/2",
      name: "notes-2.md",
      mimeType: "text/markdown",
      text: "# Two",
    },
  },
  {
    type: "resource",
    resource: { uri: "mem://reports/2024/7", mimeType: "text/plain", text: "July" },
  },
];

/**
 * Answers written by hand. Those of the tools that break the transport: a JSON body labelled as an
 * event stream, an event stream labelled as JSON, a bare 202 Accepted, and an event stream whose
 * event is not JSON-RPC (left open, as a server that carries on does). And `documents`, whose
 * embedded resources carry a `title` or `name` beside the spec's fields, as servers built on other
 * SDKs send them (the TypeScript SDK's server would drop them).
 */
const BROKEN: Record<
  string,
  (id: unknown) => { type: string; body: string; open?: boolean; status?: number }
> = {
  json_in_sse: (id) => ({
    type: "text/event-stream",
    body: JSON.stringify({ jsonrpc: "2.0", id, result: { content: [] } }),
  }),
  sse_in_json: (id) => ({
    type: "application/json",
    body: `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id, result: { content: [] } })}\n\n`,
  }),
  accepted_only: () => ({ type: "text/plain", body: "", status: 202 }),
  documents: (id) => ({
    type: "application/json",
    body: JSON.stringify({ jsonrpc: "2.0", id, result: { content: DOCUMENTS } }),
  }),
  not_json_rpc: () => ({
    type: "text/event-stream",
    body: "event: message\ndata: <html>Internal error</html>\n\n",
    open: true,
  }),
};

/**
 * Names outside MCP's tool-name rules (1–128 of A–Z a–z 0–9 _ - .), as servers in the wild send:
 * some a provider-safe name can stand for, and some no name can (empty, too long, or holding
 * characters that cannot be seen).
 */
export const MAPPABLE_TOOL_NAMES = ["get weather", "wetter/heute", "天気"];
export const UNUSABLE_TOOL_NAMES = ["", "w".repeat(200), "look\u200Bup", "\u202Eexe.daolnwod"];
const ODD_TOOL_NAMES = [...MAPPABLE_TOOL_NAMES, ...UNUSABLE_TOOL_NAMES];

function newServer(
  state: QuirkyServerState,
  endless: boolean,
  overlapping: boolean,
  oddNames = false,
): Server {
  const server = new Server(
    { name: "quirky", version: "1.0.0" },
    { capabilities: { tools: { listChanged: true }, logging: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    state.listPages++;
    const from = Number(request.params?.cursor ?? "0");
    if (endless) return { tools: TOOLS.slice(0, PAGE), nextCursor: "again" };
    // Pages that overlap: each repeats the last tool of the page before it.
    if (overlapping) {
      const page = TOOLS.slice(Math.max(0, from - 1), from + PAGE);
      return {
        tools: page,
        ...(from + PAGE < TOOLS.length && { nextCursor: String(from + PAGE) }),
      };
    }
    const next = from + PAGE;
    const odd = ODD_TOOL_NAMES.map((name) => ({
      name,
      inputSchema: noArgs,
      annotations: harmless,
    }));
    return {
      tools: [...TOOLS.slice(from, next), ...(oddNames && from === 0 ? odd : [])],
      ...(next < TOOLS.length && { nextCursor: String(next) }),
    };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const name = request.params.name;
    const done = (result: CallToolResult) => {
      state.finished.push(name);
      return result;
    };
    if (name === "weather" || name === "bad_weather") {
      const data = { temperature: name === "weather" ? 21.5 : "warm", city: "Oslo" };
      return done({
        content: [{ type: "text", text: JSON.stringify(data) }],
        structuredContent: data,
      });
    }
    if (name === "slow_work") {
      const token = request.params._meta?.progressToken;
      for (let i = 1; i <= 40; i++) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        if (extra.signal.aborted) {
          state.cancelled.push(name);
          return { content: [{ type: "text", text: "stopped" }] };
        }
        if (token !== undefined)
          await extra.sendNotification({
            method: "notifications/progress",
            params: { progressToken: token, progress: i, total: 40, message: `step ${i}` },
          });
      }
      return done({ content: [{ type: "text", text: "slow work finished" }] });
    }
    if (name === "chatty") {
      for (let i = 1; i <= 10; i++) {
        await new Promise((resolve) => setTimeout(resolve, 150));
        await extra.sendNotification({
          method: "notifications/message",
          params: { level: "info", logger: "chatty", data: `chatty line ${i}` },
        });
      }
      return done({ content: [{ type: "text", text: "chatty finished" }] });
    }
    if (name === "loud") {
      for (let i = 1; i <= 150; i++)
        await extra.sendNotification({
          method: "notifications/message",
          params: { level: "info", data: i === 2 ? "x".repeat(3_000_000) : `loud line ${i}` },
        });
      return done({ content: [{ type: "text", text: "loud finished" }] });
    }
    if (name === "rapid") {
      const token = request.params._meta?.progressToken;
      for (let i = 1; i <= 2_000; i++) {
        if (i % 100 === 0) await new Promise((resolve) => setTimeout(resolve, 50));
        if (token !== undefined)
          await extra.sendNotification({
            method: "notifications/progress",
            params: { progressToken: token, progress: i, total: 2_000, message: "m".repeat(1_000) },
          });
      }
      return done({ content: [{ type: "text", text: "rapid finished" }] });
    }
    if (name === "quick") return done({ content: [{ type: "text", text: "quick finished" }] });
    if (name === "many_pieces") {
      const content = Array.from({ length: PIECES }, (_, i) => ({
        type: "text" as const,
        text: piece(i),
      }));
      return done({ content });
    }
    if (name === "ask_client") {
      const outcomes: string[] = [];
      const ask = async (method: string, params: Record<string, unknown>) => {
        try {
          await extra.sendRequest({ method, params } as never, z.object({}).passthrough(), {
            timeout: 5_000,
          });
          outcomes.push(`${method}: answered`);
        } catch (err) {
          outcomes.push(`${method}: ${err instanceof Error ? err.message : String(err)}`);
        }
      };
      await ask("sampling/createMessage", {
        messages: [{ role: "user", content: { type: "text", text: "Say hi" } }],
        maxTokens: 10,
      });
      await ask("roots/list", {});
      state.clientAnswers.push(...outcomes);
      return done({ content: [{ type: "text", text: `The client said: ${outcomes.join("; ")}` }] });
    }
    if (ODD_TOOL_NAMES.includes(name))
      return done({ content: [{ type: "text", text: "odd ran" }] });
    throw new Error(`no tool ${name}`);
  });
  return server;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString();
  return raw ? (JSON.parse(raw) as unknown) : undefined;
}

export async function startQuirkyServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const channels = new Map<
    string,
    { state: QuirkyServerState; sessions: Map<string, StreamableHTTPServerTransport> }
  >();
  const channelOf = (name: string) => {
    let c = channels.get(name);
    if (!c) {
      c = {
        state: { listPages: 0, cancelled: [], finished: [], clientAnswers: [] },
        sessions: new Map(),
      };
      channels.set(name, c);
    }
    return c;
  };
  const http = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const match =
      /^\/([\w-]+)\/(mcp|mcp-endless|mcp-overlap|mcp-bad-init|mcp-odd-names|state)$/.exec(path);
    if (!match) return void res.writeHead(404).end();
    const channel = channelOf(match[1]!);
    if (match[2] === "state") {
      res.writeHead(200, { "content-type": "application/json" });
      return void res.end(JSON.stringify(channel.state));
    }
    void (async () => {
      const body = req.method === "POST" ? await readBody(req) : undefined;
      const call = body as { method?: string; id?: unknown; params?: { name?: string } };
      // A server whose handshake answer is an event stream labelled as JSON.
      if (match[2] === "mcp-bad-init" && call?.method === "initialize") {
        res.writeHead(200, { "content-type": "application/json" });
        return void res.end(
          `event: message\ndata: {"jsonrpc":"2.0","id":${JSON.stringify(call.id)}}\n\n`,
        );
      }
      const broken = call?.method === "tools/call" && BROKEN[call.params?.name ?? ""];
      if (broken) {
        const answer = broken(call.id);
        res.writeHead(answer.status ?? 200, { "content-type": answer.type });
        res.write(answer.body);
        if (!answer.open) res.end();
        return;
      }
      const sid = req.headers["mcp-session-id"] as string | undefined;
      let transport = sid ? channel.sessions.get(sid) : undefined;
      if (sid && !transport) return void res.writeHead(404).end();
      if (!transport) {
        const t: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => void channel.sessions.set(id, t),
        });
        transport = t;
        await newServer(
          channel.state,
          match[2] === "mcp-endless",
          match[2] === "mcp-overlap",
          match[2] === "mcp-odd-names",
        ).connect(t);
      }
      await transport.handleRequest(req, res, body);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const address = http.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** The model's side: each question calls one tool of the quirky server, then answers. */
export function addQuirkyServerFixtures(mock: LLMock): void {
  mock.on(
    { userMessage: /^quirky .* please$/, hasToolResult: true },
    { content: "Done with the quirky server." },
  );
  const call = (id: string, name: string) => ({ toolCalls: [{ id, name, arguments: "{}" }] });
  mock.onMessage(/^quirky weather please$/, call("qw1", "quirky__weather"));
  mock.onMessage(/^quirky overlap \w+ please$/, call("qv1", "quirky__weather"));
  mock.onMessage(/^quirky bad weather please$/, call("qb1", "quirky__bad_weather"));
  // A model that tries again, twice, in one step (each call a little different).
  mock.onMessage(/^quirky bad weather thrice please$/, {
    toolCalls: [1, 2, 3].map((n) => ({
      id: `qb3-${n}`,
      name: "quirky__bad_weather",
      arguments: JSON.stringify({ attempt: n }),
    })),
  });
  mock.onMessage(/^quirky slow work please$/, call("qs1", "quirky__slow_work"));
  mock.onMessage(/^quirky chatty and quick please$/, {
    toolCalls: [
      { id: "qc1", name: "quirky__chatty", arguments: "{}" },
      { id: "qq1", name: "quirky__quick", arguments: "{}" },
    ],
  });
  mock.onMessage(/^quirky loud please$/, call("ql1", "quirky__loud"));
  mock.onMessage(/^quirky rapid please$/, call("qr1", "quirky__rapid"));
  mock.onMessage(/^quirky pieces please$/, call("qp1", "quirky__many_pieces"));
  mock.onMessage(/^quirky documents please$/, call("qd1", "quirky__documents"));
  mock.onMessage(/^quirky ask client please$/, call("qa1", "quirky__ask_client"));
  mock.onMessage(/^quirky json in sse please$/, call("qj1", "quirky__json_in_sse"));
  mock.onMessage(/^quirky sse in json please$/, call("qe1", "quirky__sse_in_json"));
  mock.onMessage(/^quirky not json rpc please$/, call("qn1", "quirky__not_json_rpc"));
  mock.onMessage(/^quirky accepted only please$/, call("qo1", "quirky__accepted_only"));
}
