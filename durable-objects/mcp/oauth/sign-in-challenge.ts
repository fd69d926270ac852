// What an MCP server says when asked without a token: its 401 (or 403) names the resource
// metadata and the scopes a sign-in should ask for. Most servers refuse `initialize` already;
// some let the handshake through and refuse the first request that touches data, so the
// challenge asks the way a client goes on (initialized, then tools/list) before it concludes
// that the server needs no sign-in at all.
import { extractWWWAuthenticateParams } from "@modelcontextprotocol/sdk/client/auth.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";

export interface SignInChallenge {
  /** 401 or 403 when the server asks for a sign-in; otherwise what `initialize` answered. */
  status: number;
  resourceMetadataUrl?: URL;
  scope?: string;
}

const asksForSignIn = (status: number) => status === 401 || status === 403;

async function post(fetchFn: typeof fetch, url: string, message: object, sessionId?: string) {
  const res = await fetchFn(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(sessionId && { "mcp-session-id": sessionId }),
    },
    body: JSON.stringify({ jsonrpc: "2.0", ...message }),
  });
  await res.body?.cancel();
  return res;
}

export async function signInChallenge(
  url: string,
  fetchFn: typeof fetch,
): Promise<SignInChallenge> {
  const hint = (res: Response) => ({ status: res.status, ...extractWWWAuthenticateParams(res) });
  const init = await post(fetchFn, url, {
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "thinking-chat", version: "0.1.0" },
    },
  });
  if (!init.ok) return hint(init);
  // No mcp-protocol-version header: the version is in the body we did not read, and servers
  // take a missing header as a version they support.
  const sessionId = init.headers.get("mcp-session-id") ?? undefined;
  try {
    const initialized = await post(
      fetchFn,
      url,
      { method: "notifications/initialized" },
      sessionId,
    );
    if (asksForSignIn(initialized.status)) return hint(initialized);
    const listed = await post(fetchFn, url, { id: 1, method: "tools/list" }, sessionId);
    if (asksForSignIn(listed.status)) return hint(listed);
    return { status: init.status };
  } finally {
    // The session was only for asking; a server that keeps sessions may drop it now.
    if (sessionId)
      await fetchFn(url, { method: "DELETE", headers: { "mcp-session-id": sessionId } })
        .then((res) => res.body?.cancel())
        .catch(() => undefined);
  }
}
