// One short MCP session per catalog request (prompts, resources, completion), opened with the
// same server list, transports and sign-in as a turn's, used once and ended. Nothing is cached,
// so a listing is always what the server offers now: its prompts/list_changed and
// resources/list_changed need no cache to invalidate.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import {
  type ServerConfig,
  serversForUser,
} from "../../../../durable-objects/conversation/mcp-servers";
import { routesFor } from "../../../../durable-objects/conversation/tool-runner";
import { newMcpClient, newMcpTransport } from "../../../../durable-objects/mcp/mcp-client";
import { backgroundProvider } from "../../../../durable-objects/mcp/oauth/background-provider";
import { secretBox } from "../../../../durable-objects/mcp/oauth/secret-box";
import { closeQuietly, describeProbeFailure } from "../../../../durable-objects/mcp/probe-server";
import type { ConversationSettings } from "../../../../durable-objects/protocol/rest";
import type { Env } from "../../../../shared/env";
import { ApiError } from "../http/errors";

/** A catalog request waits at most this long for a server, whatever its tool timeout. */
export const CATALOG_TIMEOUT_MS = 15_000;

export interface CatalogScope {
  env: Env;
  userId: string;
  /** Where the API answers (names our OAuth callback for a sign-in's refresh). */
  origin: string;
}

/** The conversation's servers, as a turn sees them: enabled, ours included, blocked ones left out. */
export async function conversationServers(
  scope: CatalogScope,
  settings: ConversationSettings,
): Promise<ServerConfig[]> {
  const blocked = new Set(settings.blockedServers ?? []);
  return (await serversForUser(scope.env, scope.userId)).filter((s) => !blocked.has(s.name));
}

/** The one server a request names, or a 404 that says which servers there are. */
export function serverNamed(servers: ServerConfig[], name: string): ServerConfig {
  const server = servers.find((s) => s.name === name);
  if (server) return server;
  throw new ApiError(
    404,
    "not_found",
    `No MCP server named '${name}' is in use in this conversation (it has ${servers.map((s) => `'${s.name}'`).join(", ") || "none"}). Check the name, or enable the server in Settings.`,
  );
}

/** Runs `work` in a fresh session with `server`, then ends the session. */
export async function withCatalogSession<T>(
  scope: CatalogScope,
  server: ServerConfig,
  work: (client: Client, timeoutMs: number) => Promise<T>,
): Promise<T> {
  const timeoutMs = Math.min(server.timeoutMs, CATALOG_TIMEOUT_MS);
  const box = await secretBox(scope.env).catch(() => null);
  const authProvider =
    box && server.id && !server.builtin
      ? backgroundProvider(
          scope.env.DB,
          box,
          scope.userId,
          { ...server, id: server.id },
          scope.origin,
        )
      : undefined;
  const transport = newMcpTransport({
    url: server.url,
    headers: server.headers,
    route: routesFor(scope.env)(server),
    ...(authProvider && { authProvider }),
  });
  const client = newMcpClient();
  // The standing GET stream may fail (many servers answer 405); the request itself decides.
  client.onerror = () => undefined;
  try {
    try {
      await client.connect(transport, { timeout: timeoutMs });
    } catch (err) {
      throw unavailable(server, err, timeoutMs);
    }
    try {
      return await work(client, timeoutMs);
    } catch (err) {
      throw refused(server, err, timeoutMs);
    }
  } finally {
    await closeQuietly(client, transport);
  }
}

/** A server that could not be reached or would not talk MCP, in the connection test's words. */
export function unavailable(server: ServerConfig, err: unknown, timeoutMs: number): ApiError {
  if (err instanceof ApiError) return err;
  const failure = describeProbeFailure(err, server.url, timeoutMs);
  return new ApiError(
    502,
    "upstream_failed",
    `The MCP server '${server.name}' could not be used: ${failure.message}`,
    { server: server.name, reason: failure.code },
  );
}

/** A server that answered a request with an error: what it said, and whose fault it is. */
function refused(server: ServerConfig, err: unknown, timeoutMs: number): ApiError {
  if (err instanceof ApiError) return err;
  if (!(err instanceof McpError)) return unavailable(server, err, timeoutMs);
  const said = err.message.replace(/^MCP error -?\d+: /, "");
  const details = { server: server.name, reason: String(err.code) };
  switch (err.code) {
    case ErrorCode.InvalidParams:
      return new ApiError(
        400,
        "validation_failed",
        `The MCP server '${server.name}' refused the request: ${said}`,
        details,
      );
    case ErrorCode.MethodNotFound:
      return new ApiError(
        400,
        "bad_request",
        `The MCP server '${server.name}' does not offer this (${said}).`,
        details,
      );
    // The specification's code for a resource that does not exist.
    case -32002:
      return new ApiError(
        404,
        "not_found",
        `The MCP server '${server.name}' has no such resource: ${said}`,
        details,
      );
    case ErrorCode.RequestTimeout:
    case ErrorCode.ConnectionClosed:
      return unavailable(server, err, timeoutMs);
    default:
      return new ApiError(
        502,
        "upstream_failed",
        `The MCP server '${server.name}' could not answer: ${said}`,
        details,
      );
  }
}
