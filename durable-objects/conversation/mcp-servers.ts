// Which MCP servers a turn may use: the user's registry in D1 plus our own MCP worker.
import { z } from "zod";
import type { Env } from "../../shared/env";
import { BUILTIN_SERVER } from "../protocol/conversation-settings";

export { BUILTIN_SERVER };

export interface ServerConfig {
  /** The registry row (for the user's own sign-in to it); our built-in server has none. */
  id?: string;
  name: string;
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** The longest one tool call may take, progress or not. */
  maxTotalMs: number;
  enabledTools: string[] | null;
  /** Our own worker, reached through its service binding rather than the internet. */
  builtin: boolean;
  /** When the user last changed the server's settings (ms); our built-in server has none. */
  editedAt?: number;
}

/** How long one tool call may take at most (progress resets the per-call timeout, not this). */
export const DEFAULT_MAX_TOTAL_MS = 10 * 60_000;

/** The name our own MCP worker goes by in catalogs and timelines. */
// The service binding ignores the host; the path is what the MCP worker routes on.
const BUILTIN_URL = "https://mcp-remote.internal/mcp";

const Row = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  headers: z.string(),
  timeout_ms: z.number(),
  max_total_ms: z.number(),
  enabled_tools: z.string().nullable(),
  updated_at: z.number(),
});

/** A user's enabled servers; `user` is SQL for the user's id (a parameter, or a subquery). */
export const userServersSql = (user = "?1") =>
  `SELECT id, name, url, headers, timeout_ms, max_total_ms, enabled_tools, updated_at FROM mcp_servers WHERE user_id = ${user} AND enabled = 1 ORDER BY name`;

export async function serversForUser(env: Env, userId: string): Promise<ServerConfig[]> {
  const rows = await env.DB.prepare(userServersSql()).bind(userId).all();
  return serversFromRows(env, rows.results);
}

/** Our own server, then the user's registry rows (from `userServersSql`). */
export function serversFromRows(env: Env, results: readonly unknown[]): ServerConfig[] {
  const servers: ServerConfig[] = [
    {
      name: BUILTIN_SERVER,
      url: BUILTIN_URL,
      headers: env.MCP_REMOTE_TOKEN ? { authorization: `Bearer ${env.MCP_REMOTE_TOKEN}` } : {},
      timeoutMs: 60_000,
      maxTotalMs: DEFAULT_MAX_TOTAL_MS,
      enabledTools: null,
      builtin: true,
    },
  ];
  for (const raw of results) {
    const row = Row.safeParse(raw);
    if (!row.success || row.data.name === BUILTIN_SERVER) continue;
    const headers = z.record(z.string(), z.string()).safeParse(JSON.parse(row.data.headers));
    const tools = row.data.enabled_tools
      ? z.array(z.string()).safeParse(JSON.parse(row.data.enabled_tools))
      : null;
    servers.push({
      id: row.data.id,
      name: row.data.name,
      url: row.data.url,
      headers: headers.success ? headers.data : {},
      timeoutMs: row.data.timeout_ms,
      maxTotalMs: row.data.max_total_ms,
      enabledTools: tools?.success ? tools.data : null,
      builtin: false,
      editedAt: row.data.updated_at,
    });
  }
  return servers;
}
