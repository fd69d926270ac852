// "Test the connection": initialize and tools/list against one MCP server over streamable HTTP,
// then close. Every way it can fail becomes a stable code and a sentence saying what to fix.
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  type StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ErrorCode,
  McpError,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import type { McpServerTest, McpToolInfo } from "../protocol/rest";
import { DnsLookupError } from "./dns-over-https";
import { RefusedUrlError } from "./guarded-fetch";
import { type McpRoute, newMcpClient, newMcpTransport } from "./mcp-client";
import { SignInRequiredError } from "./oauth/sign-in-errors";
import { checkServerUrl } from "./url-guard";

export const PROBE_TIMEOUT_MS = 10_000;
const MAX_TOOL_PAGES = 20;
const TERMINATE_WAIT_MS = 1_000;

export type ProbeFailure = Extract<McpServerTest, { ok: false }>["error"];

export interface ProbeTarget {
  url: string;
  headers?: Record<string, string>;
  /**
   * How the server is reached: over the internet, with the URL and every redirect checked by the
   * same rules as a turn's tool calls; or through a service binding (our own MCP worker).
   */
  via: McpRoute;
  /** The whole probe (handshake and listing) must finish within this. */
  timeoutMs?: number;
  /** OAuth sign-in: the user's stored tokens, or a detector that only says a sign-in is needed. */
  authProvider?: OAuthClientProvider;
}

export async function probeServer(target: ProbeTarget): Promise<McpServerTest> {
  const timeoutMs = target.timeoutMs ?? PROBE_TIMEOUT_MS;
  if (target.via.kind === "internet") {
    const check = checkServerUrl(target.url, { allowLocal: target.via.allowLocal });
    if (!check.ok) return refused(check.reason);
  }

  const deadline = Date.now() + timeoutMs;
  const remaining = () => Math.max(1, deadline - Date.now());
  const transport = newMcpTransport({
    url: target.url,
    headers: target.headers ?? {},
    route: target.via,
    ...(target.authProvider && { authProvider: target.authProvider }),
  });
  const client = newMcpClient();
  // The standing GET stream may fail (many servers answer 405); the request itself decides.
  client.onerror = () => undefined;
  try {
    await client.connect(transport, { timeout: remaining() });
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, {
        timeout: remaining(),
      });
      for (const t of page.tools)
        tools.push({
          name: t.name,
          ...(t.title && { title: t.title }),
          ...(t.description && { description: t.description }),
          ...(t.annotations && { annotations: approvalHints(t.annotations) }),
        });
      cursor = page.nextCursor;
    } while (cursor && ++pages < MAX_TOOL_PAGES);
    const info = client.getServerVersion();
    return {
      ok: true,
      serverInfo: { name: info?.name ?? "", version: info?.version ?? "" },
      protocolVersion: transport.protocolVersion ?? "",
      tools,
    };
  } catch (err) {
    return { ok: false, error: describeProbeFailure(err, target.url, timeoutMs) };
  } finally {
    await closeQuietly(client, transport);
  }
}

function refused(reason: string): McpServerTest {
  return {
    ok: false,
    error: {
      code: "refused_url",
      message: `This URL is not allowed: ${reason}. MCP servers must be public https:// addresses.`,
    },
  };
}

/** Says the session is over (politely, briefly) and drops the connection. */
export async function closeQuietly(client: Client, transport: StreamableHTTPClientTransport) {
  if (transport.sessionId) {
    await Promise.race([
      transport.terminateSession().catch(() => undefined),
      new Promise((resolve) => setTimeout(resolve, TERMINATE_WAIT_MS)),
    ]);
  }
  await client.close().catch(() => undefined);
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/** The server's own words after the SDK's prefix, short enough for a settings panel. */
function serverWords(err: StreamableHTTPError): string {
  const text = err.message
    .replace(/^Streamable HTTP error: /, "")
    .replace(/^Error POSTing to endpoint:\s*/, "")
    .trim();
  if (!text || /^<(!doctype|html)/i.test(text)) return "";
  return ` The server said: ${text.length > 200 ? `${text.slice(0, 200)}…` : text}`;
}

export function describeProbeFailure(err: unknown, url: string, timeoutMs: number): ProbeFailure {
  const host = hostOf(url);
  const message = (err instanceof Error ? err.message : String(err)).replace(/\.$/, "");
  if (err instanceof SignInRequiredError) return { code: "needs_sign_in", message: err.message };
  if (err instanceof RefusedUrlError)
    return {
      code: "refused_url",
      message: `${message}. This address is not allowed: MCP servers must be public https:// addresses.`,
    };
  if (err instanceof DnsLookupError)
    return {
      code: "unreachable",
      message: `${message}. The name must resolve in public DNS before any request is sent; check the host name, or the resolver set in MCP_DNS_RESOLVER.`,
    };
  const version = unsupportedVersion(err);
  if (version !== null)
    return {
      code: "protocol_error",
      message: `${host} answered, but only speaks MCP protocol version ${version}, which this app does not support (it speaks ${SUPPORTED_PROTOCOL_VERSIONS.slice(0, 3).join(", ")} and older back to ${SUPPORTED_PROTOCOL_VERSIONS.at(-1)}). The URL is right; the server (or the MCP SDK it is built on) needs an update.`,
    };
  if (err instanceof McpError && err.code === ErrorCode.RequestTimeout)
    return {
      code: "timeout",
      message: `No answer from ${host} within ${Math.round(timeoutMs / 1000)} s. Check that the URL is the server's MCP endpoint and that the server is running, then try again.`,
    };
  if (err instanceof StreamableHTTPError) {
    const status = err.code ?? 0;
    if (status === 401 || status === 403)
      return {
        code: "unauthorized",
        message: `${host} answered ${status} (${status === 401 ? "unauthorized" : "forbidden"}). Check the headers: most servers want "Authorization: Bearer <token>" or an API-key header with a valid, unexpired value.${serverWords(err)}`,
      };
    if (status === 404)
      return {
        code: "not_found",
        message: `Nothing at ${url} (HTTP 404). Check the path: MCP endpoints usually end in /mcp.${serverWords(err)}`,
      };
    if (status >= 500)
      return {
        code: "server_error",
        message: `${host} had an error (HTTP ${status}). Try again later, or look at the server's logs.${serverWords(err)}`,
      };
    if (status === -1)
      return {
        code: "not_mcp",
        message: `${url} answered, but not with MCP (${message.replace(/^.*Unexpected content type: /, "content type ")}). Check that the URL is the server's MCP endpoint (often /mcp), not a web page.`,
      };
    return {
      code: "not_mcp",
      message: `${host} answered HTTP ${status} to an MCP request, so ${url} does not look like a streamable HTTP MCP endpoint. Check the path (often /mcp); servers that only speak the older SSE transport are not supported.${serverWords(err)}`,
    };
  }
  if (isParseError(err))
    return {
      code: "not_mcp",
      message: `${url} answered with something that is not MCP (JSON-RPC). Check that the URL is the server's MCP endpoint (often /mcp).`,
    };
  if (err instanceof McpError && err.code !== ErrorCode.ConnectionClosed)
    return {
      code: "protocol_error",
      message: `${host} refused the MCP handshake: ${message}. The server may need a newer or older protocol version, or different headers.`,
    };
  return {
    code: "unreachable",
    message: `Could not connect to ${host} (${message}). Check the URL, that the server is running, and that it can be reached from the internet (not only from your computer or VPN).`,
  };
}

/** The version a server insisted on when it speaks none we support, or null for other errors. */
export function unsupportedVersion(err: unknown): string | null {
  const match =
    err instanceof Error ? /protocol version is not supported: (.*)$/.exec(err.message) : null;
  return match ? match[1]!.trim() : null;
}

function isParseError(err: unknown): boolean {
  return err instanceof SyntaxError || (err instanceof Error && err.name === "ZodError");
}

/** Only the hints that decide a tool's default approval policy (booleans; anything else dropped). */
function approvalHints(a: Record<string, unknown>): NonNullable<McpToolInfo["annotations"]> {
  const hints: NonNullable<McpToolInfo["annotations"]> = {};
  for (const key of ["readOnlyHint", "destructiveHint", "openWorldHint"] as const) {
    const value = a[key];
    if (typeof value === "boolean") hints[key] = value;
  }
  return hints;
}
