// How we introduce ourselves to an MCP server and how we reach it, for turns and connection tests
// alike: every client and transport is made here, so a new transport option (sign-in, for one)
// is added in one place. workerd cannot compile JSON Schema validators at run time (no eval), so
// tool output is checked with the Cloudflare validator.
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker-provider.js";
import { fetchFor, type McpRoute } from "./mcp-route";
import { AnswerWatch, lostAnswer } from "./response-streams";

export { fetchFor, internetRoute, type McpRoute } from "./mcp-route";

/**
 * `elicitation`: declare that the user can be asked things during a tool call (forms, and pages
 * to open, as of MCP 2025-11-25). Only a turn's clients do: someone is there to answer, and the
 * caller must then handle `elicitation/create` (a connection test has nobody to ask).
 */
export function newMcpClient(opts: { elicitation?: boolean } = {}): Client {
  return new Client(
    { name: "thinking-chat", version: "0.1.0" },
    {
      capabilities: opts.elicitation ? { elicitation: { form: {}, url: {} } } : {},
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    },
  );
}

export interface McpEndpoint {
  url: string;
  headers: Record<string, string>;
  route: McpRoute;
  /** A session stored from an earlier connection, resumed without a new handshake. */
  sessionId?: string;
  /** The user's OAuth sign-in to this server, where it needs one. */
  authProvider?: OAuthClientProvider;
  /** Sees each response the server sends (the sign-in notes a 403 that asks for more scopes). */
  onResponse?: (response: Response) => void;
}

function observed(fetchFn: typeof fetch, onResponse: (response: Response) => void): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await fetchFn(input, init);
    onResponse(response);
    return response;
  }) as typeof fetch;
}

/**
 * A request whose response stream breaks (the server died, a proxy cut the connection) fails at
 * once, with an error isConnectionLost knows, rather than waiting for its timeout: see
 * response-streams.ts. It is never sent again.
 */
export function newMcpTransport(endpoint: McpEndpoint): StreamableHTTPClientTransport {
  const base = endpoint.onResponse
    ? observed(fetchFor(endpoint.route), endpoint.onResponse)
    : fetchFor(endpoint.route);
  const watch = new AnswerWatch((id, cause, unreadable) =>
    transport.onmessage?.(lostAnswer(id, cause, unreadable)),
  );
  const transport: StreamableHTTPClientTransport = new StreamableHTTPClientTransport(
    new URL(endpoint.url),
    {
      requestInit: { headers: endpoint.headers },
      fetch: watch.fetch(base),
      // Our fetch follows redirects itself (checking each hop and dropping credentials when the
      // origin changes), so the transport leaves them to it.
      redirectPolicy: "follow",
      ...(endpoint.sessionId && { sessionId: endpoint.sessionId }),
      ...(endpoint.authProvider && { authProvider: endpoint.authProvider }),
    },
  );
  // Set before the client connects, which keeps it and adds its own after it.
  transport.onerror = (error) => watch.transportError(error);
  return transport;
}
