// An MCP SDK client wired to this worker over the real streamable HTTP transport, plus helpers.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { LoggingMessageNotification } from "@modelcontextprotocol/sdk/types.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker-provider.js";
import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { signContextToken } from "../src/context-token";

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

export async function connect(token = TOKEN): Promise<Connected> {
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
    fetch: (u, i) => worker.fetch(new Request(u, i)),
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
