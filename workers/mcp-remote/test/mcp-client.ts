// An MCP SDK client wired to this worker over the real streamable HTTP transport, plus helpers.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { LoggingMessageNotification } from "@modelcontextprotocol/sdk/types.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker-provider.js";
import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { signContextToken } from "../../../shared/context-token";
import type { McpEnv } from "../src/env";
import handler from "../src/index";

export const BASE = "https://mcp.test/mcp";
export const TOKEN = "test-mcp-token";
export const worker = exports.default as unknown as { fetch: (r: Request) => Promise<Response> };
export const db = (env as unknown as { DB: D1Database }).DB;
export const testEnv = env as unknown as Record<string, string>;

export interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
  logs: LoggingMessageNotification["params"][];
}

/** The worker's handler with some variables changed (a longer outside timeout, say). */
export const workerWith = (overrides: Record<string, string>) => (r: Request) =>
  handler.fetch(r, { ...env, ...overrides } as unknown as McpEnv);

export async function connect(
  token = TOKEN,
  fetchVia: (r: Request) => Promise<Response> = (r) => worker.fetch(r),
): Promise<Connected> {
  const client = new Client(
    { name: "test", version: "1" },
    { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
  const logs: Connected["logs"] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    logs.push(n.params);
  });
  const transport = new StreamableHTTPClientTransport(new URL(BASE), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    fetch: (u, i) => fetchVia(new Request(u, i)),
  });
  await client.connect(transport);
  return { client, transport, logs };
}

/** The text items of a tool result, joined. */
export const text = (r: Record<string, unknown>) =>
  ((r.content as Array<{ type: string; text?: string }>) ?? [])
    .flatMap((c) => (c.type === "text" ? [c.text] : []))
    .join("\n");

/** The databaseContext the Conversation DO would inject; `tokenFor` signs another conversation. */
export async function context(
  conversationId: string,
  tokenFor = conversationId,
  ttlSeconds?: number,
) {
  return {
    conversationId,
    apiBase: "https://app.test",
    token: await signContextToken("test-graph-secret", {
      conversationId: tokenFor,
      userId: "u1",
      ...(ttlSeconds !== undefined && { ttlSeconds }),
    }),
  };
}

export async function seedConversations(...ids: string[]) {
  await db.batch([
    db.prepare("INSERT OR IGNORE INTO users (id, name) VALUES ('u1', 'u1')"),
    ...ids.map((id) =>
      db
        .prepare(
          "INSERT OR IGNORE INTO conversations (id, user_id, title, provider, model) VALUES (?, 'u1', ?, 'anthropic', 'm')",
        )
        .bind(id, id),
    ),
  ]);
}

/** The outside-API URLs the fixture server was asked for since `since`. */
export async function outsideRequests(since = 0): Promise<string[]> {
  const base = new URL(testEnv.EUTILS_BASE_URL!).origin;
  const all = (await (await fetch(`${base}/__requests`)).json()) as string[];
  return all.slice(since);
}

/** Outside-API URLs whose connection we closed before they answered. */
export async function abandonedOutsideRequests(): Promise<string[]> {
  const base = new URL(testEnv.EUTILS_BASE_URL!).origin;
  return (await (await fetch(`${base}/__abandoned`)).json()) as string[];
}

/** Polls `check` until it holds or `ms` pass; returns whether it held. */
export async function eventually(check: () => Promise<boolean>, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

/** A raw JSON-RPC POST to /mcp, as a client without the SDK would send it. */
export function rawPost(
  body: unknown,
  headers: Record<string, string> = {},
  init: RequestInit = {},
): Request {
  return new Request(BASE, {
    method: "POST",
    headers: {
      authorization: `Bearer ${TOKEN}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
    ...init,
  });
}

/** The JSON-RPC messages of a response, whether it came as JSON or as an SSE stream. */
export async function messagesOf(res: Response): Promise<Array<Record<string, unknown>>> {
  const body = await res.text();
  if (!(res.headers.get("content-type") ?? "").includes("text/event-stream"))
    return [JSON.parse(body) as Record<string, unknown>];
  return body
    .split("\n")
    .filter((l) => l.startsWith("data: ") && l.length > 6)
    .map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
}

export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "raw", version: "1" },
  },
};
