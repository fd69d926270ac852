// The MCP connections of one conversation: live connections are kept in memory while the object
// lives, their session ids in its storage. Sessions are ended (HTTP DELETE) when the conversation
// goes idle (or its instance was evicted), is deleted, or when their server left the registry.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { type McpRoute, newMcpTransport } from "../mcp/mcp-client";
import type { ServerConfig } from "./mcp-servers";
import type { ConversationStore } from "./store";

export interface Live {
  client: Client;
  transport: StreamableHTTPClientTransport;
  /**
   * Where the server's log lines go, one per call running on this connection: a line belongs to
   * the server, not to a call, so the latest call's takes it; each call removes only its own.
   */
  logListeners?: Set<(l: { level: string; data: unknown }) => void>;
  /** The tool calls running on this connection, oldest first: a server's question belongs to one. */
  runningCalls?: RunningCall[];
  /** When a turn last used this connection (ms since epoch). */
  lastUsed: number;
  /** When the user last edited the server's settings as this connection was opened with them. */
  editedAt?: number | undefined;
}

/** A tool call in flight, and how a question its server asks meanwhile reaches the user. */
export interface RunningCall {
  callId: string;
  ask: (request: ElicitRequest["params"], signal: AbortSignal) => Promise<ElicitResult>;
}

/** Connections live as long as the DO instance; their session ids outlive it in SQLite. */
export type ConnectionPool = Map<string, Live>;

const SESSION_PREFIX = "mcp:";
export const sessionKey = (s: Pick<ServerConfig, "name" | "url">) =>
  `${SESSION_PREFIX}${s.name}:${s.url}`;

export const CachedSession = z.object({
  sessionId: z.string().optional(),
  protocolVersion: z.string().optional(),
  tools: z.array(z.any()).nullable(),
});
export type CachedSession = z.infer<typeof CachedSession>;

/** A session nobody used for this long is ended. */
export const DEFAULT_IDLE_CLOSE_MS = 5 * 60_000;
/** Ending a session is a courtesy: a server that does not answer quickly is not waited for. */
const END_WAIT_MS = 2_000;

/**
 * Which live connections no turn used for `idleMs`, and how long until the next of the others
 * would turn idle (null when none is left).
 */
export function unusedSince(
  pool: ConnectionPool,
  idleMs: number,
  now = Date.now(),
): { idle: Set<string>; nextInMs: number | null } {
  const idle = new Set<string>();
  let nextInMs: number | null = null;
  for (const [key, live] of pool) {
    const idleFor = now - live.lastUsed;
    if (idleFor >= idleMs) idle.add(key);
    else nextInMs = Math.min(nextInMs ?? Infinity, idleMs - idleFor);
  }
  return { idle, nextInMs };
}

/**
 * Ends stored sessions (those whose key `which` selects) with an HTTP DELETE, then forgets them.
 * A live connection ends with the headers it was opened with; a stored one with its server's
 * current headers, or none when the server is no longer in the registry (its headers left with
 * it; a server that insists on them lets the session expire on its own).
 */
export async function endSessions(opts: {
  store: ConversationStore;
  pool: ConnectionPool;
  servers: ServerConfig[];
  routeFor: (server: ServerConfig | undefined) => McpRoute;
  which: (key: string) => boolean;
}): Promise<void> {
  const byKey = new Map(opts.servers.map((s) => [sessionKey(s), s]));
  const ends: Promise<void>[] = [];
  for (const { key, value } of opts.store.metaWithPrefix(SESSION_PREFIX)) {
    if (!opts.which(key)) continue;
    const cached = CachedSession.safeParse(safeJson(value));
    const live = opts.pool.get(key);
    opts.pool.delete(key);
    opts.store.deleteMeta(key);
    const sessionId = cached.success ? cached.data.sessionId : undefined;
    if (live) ends.push(endLive(live));
    else if (sessionId) {
      const server = byKey.get(key);
      const transport = newMcpTransport({
        url: key.slice(key.indexOf(":", SESSION_PREFIX.length) + 1),
        headers: server?.headers ?? {},
        route: opts.routeFor(server),
        sessionId,
      });
      if (cached.success && cached.data.protocolVersion)
        transport.setProtocolVersion(cached.data.protocolVersion);
      ends.push(bounded(transport.terminateSession()));
    }
  }
  await Promise.all(ends);
}

async function endLive(live: Live): Promise<void> {
  if (live.transport.sessionId) await bounded(live.transport.terminateSession());
  await live.client.close().catch(() => undefined);
}

function bounded(work: Promise<unknown>): Promise<void> {
  return Promise.race([
    work.then(
      () => undefined,
      () => undefined,
    ),
    new Promise<void>((resolve) => setTimeout(resolve, END_WAIT_MS)),
  ]);
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}
