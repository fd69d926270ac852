// An MCP server protected by OAuth 2.1, on 127.0.0.1, for tests: an authorization server built
// from the MCP SDK's own server-side auth (mcpAuthRouter: metadata, registration, authorize,
// token, revoke, PKCE checks) and a resource server on another port that publishes Protected
// Resource Metadata and checks bearer tokens (requireBearerAuth). Only the grant bookkeeping
// below is ours; the protocol is the SDK's.
//
// The consent page asks who signs in (Allow) or Cancel; tests without a browser skip it by
// adding `login=<name>` or `deny=1` to the authorize URL. `/test/*` lets tests look and meddle.
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/sdk/server/auth/clients.js";
import {
  InvalidGrantError,
  InvalidTokenError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import type {
  AuthorizationParams,
  OAuthServerProvider,
} from "@modelcontextprotocol/sdk/server/auth/provider.js";
import {
  createOAuthMetadata,
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthMetadataRouter,
  mcpAuthRouter,
} from "@modelcontextprotocol/sdk/server/auth/router.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type {
  OAuthClientInformationFull,
  OAuthTokenRevocationRequest,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import express from "express";

export type Fault =
  | "none"
  | "token_500"
  | "registration_refused"
  | "bad_metadata"
  /** Its metadata names the authorization page set by POST /test/authorization-endpoint. */
  | "odd_authorization";

interface Grant {
  login: string;
  clientId: string;
  scopes: string[];
  resource?: string;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!,
  );

/**
 * The consent page a browser sees: who signs in, Allow or Cancel. Either button sends the same
 * authorization request back to this endpoint with `login` or `deny` added.
 */
function consentPage(requestUrl: string): string {
  const hidden = [...new URL(requestUrl, "http://x").searchParams]
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join("");
  return `<!doctype html><html lang="en"><head><title>Sign in to the protected test server</title></head>
<body><h1>Allow Thinking Chat to use the protected test server?</h1>
<form method="get" action="/authorize">${hidden}
<label>Sign in as <input name="login" required></label>
<button type="submit">Allow</button></form>
<form method="get" action="/authorize">${hidden}<input type="hidden" name="deny" value="1">
<button type="submit">Cancel</button></form></body></html>`;
}

class TestAuthProvider implements OAuthServerProvider {
  readonly clients = new Map<string, OAuthClientInformationFull>();
  readonly codes = new Map<string, Grant & { params: AuthorizationParams }>();
  readonly access = new Map<string, Grant & { expiresAt: number; refresh: string }>();
  readonly refresh = new Map<string, Grant>();
  tokenTtlSeconds = 3600;

  get clientsStore(): OAuthRegisteredClientsStore {
    return {
      getClient: (id) => this.clients.get(id),
      registerClient: (client) => {
        const full = client as OAuthClientInformationFull;
        this.clients.set(full.client_id, full);
        return full;
      },
    };
  }

  async authorize(
    client: OAuthClientInformationFull,
    params: AuthorizationParams,
    res: express.Response,
  ) {
    const target = new URL(params.redirectUri);
    if (params.state !== undefined) target.searchParams.set("state", params.state);
    const query = res.req.query as Record<string, string | undefined>;
    if (!query.login && !query.deny) return void res.type("html").send(consentPage(res.req.url));
    if (query.deny) {
      target.searchParams.set("error", "access_denied");
      return res.redirect(target.href);
    }
    const code = randomUUID();
    this.codes.set(code, {
      login: query.login ?? "anonymous",
      clientId: client.client_id,
      scopes: params.scopes ?? [],
      ...(params.resource && { resource: params.resource.href }),
      params,
    });
    target.searchParams.set("code", code);
    res.redirect(target.href);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string) {
    const grant = this.codes.get(code);
    if (!grant) throw new InvalidGrantError("unknown authorization code");
    return grant.params.codeChallenge;
  }

  private issue(grant: Grant) {
    const token = `at-${grant.login}-${randomUUID()}`;
    const refresh = `rt-${grant.login}-${randomUUID()}`;
    this.access.set(token, {
      ...grant,
      refresh,
      expiresAt: Date.now() + this.tokenTtlSeconds * 1000,
    });
    this.refresh.set(refresh, grant);
    return {
      access_token: token,
      token_type: "bearer",
      expires_in: this.tokenTtlSeconds,
      refresh_token: refresh,
      scope: grant.scopes.join(" "),
    };
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string) {
    const grant = this.codes.get(code);
    if (!grant || grant.clientId !== client.client_id)
      throw new InvalidGrantError("unknown authorization code");
    this.codes.delete(code);
    const { params: _params, ...rest } = grant;
    return this.issue(rest);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string) {
    const grant = this.refresh.get(refreshToken);
    if (!grant || grant.clientId !== client.client_id)
      throw new InvalidGrantError("refresh token is invalid or revoked");
    // Refresh tokens rotate: the old one is spent.
    this.refresh.delete(refreshToken);
    return this.issue(grant);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const grant = this.access.get(token);
    if (!grant || grant.expiresAt < Date.now())
      throw new InvalidTokenError("invalid or expired token");
    return {
      token,
      clientId: grant.clientId,
      scopes: grant.scopes,
      expiresAt: Math.floor(grant.expiresAt / 1000),
      extra: { login: grant.login },
    };
  }

  async revokeToken(_client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest) {
    const access = this.access.get(request.token);
    if (access) this.refresh.delete(access.refresh);
    this.access.delete(request.token);
    this.refresh.delete(request.token);
    revoked.push(request.token);
  }

  /** Everything issued to `login`, gone: as if the user revoked the app at the provider. */
  revokeLogin(login: string) {
    for (const [k, v] of this.access) if (v.login === login) this.access.delete(k);
    for (const [k, v] of this.refresh) if (v.login === login) this.refresh.delete(k);
  }

  expireLogin(login: string) {
    for (const v of this.access.values()) if (v.login === login) v.expiresAt = 0;
  }
}

const revoked: string[] = [];

/** Not advertised: only a 403 asking for it tells a client it exists. */
export const ADMIN_SCOPE = "mcp:admin";

/** A server bound to a free port first: the apps need their own URL before they are built. */
const bound = () =>
  new Promise<{ server: Server; port: number }>((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const a = server.address();
      resolve({ server, port: typeof a === "object" && a ? a.port : 0 });
    });
  });

export interface ProtectedServer {
  /** The MCP endpoint. */
  url: string;
  /** The authorization server (with /test/* controls). */
  issuer: string;
  stop: () => Promise<void>;
}

export async function startProtectedServer(fault: Fault = "none"): Promise<ProtectedServer> {
  const provider = new TestAuthProvider();
  const seen: Array<{ login: string; method: string; authorization: string }> = [];

  // The authorization server.
  const as = express();
  const asBound = await bound();
  const issuerUrl = new URL(`http://127.0.0.1:${asBound.port}/`);
  as.use(express.json());
  as.get("/test/seen", (_req, res) => void res.json({ seen, revoked }));
  as.post("/test/expire", (req, res) => {
    provider.expireLogin(String(req.body.login));
    res.json({ ok: true });
  });
  as.post("/test/revoke", (req, res) => {
    provider.revokeLogin(String(req.body.login));
    res.json({ ok: true });
  });
  if (fault === "token_500")
    as.post("/token", (_req, res) => void res.status(500).send("upstream database is down"));
  if (fault === "registration_refused")
    as.post(
      "/register",
      (_req, res) =>
        void res.status(400).json({
          error: "invalid_client_metadata",
          error_description: "this server only accepts pre-registered clients",
        }),
    );
  if (fault === "bad_metadata")
    as.get(
      "/.well-known/oauth-authorization-server",
      (_req, res) => void res.json({ issuer: "nonsense", authorization_endpoint: 42 }),
    );
  if (fault === "odd_authorization") {
    let page = "https://127.0.0.1/authorize";
    as.post("/test/authorization-endpoint", (req, res) => {
      page = String(req.body.url);
      res.json({ ok: true });
    });
    as.get(
      "/.well-known/oauth-authorization-server",
      (_req, res) =>
        void res.json({
          ...createOAuthMetadata({ provider, issuerUrl, scopesSupported: ["mcp:tools"] }),
          authorization_endpoint: page,
        }),
    );
  }
  const off = { rateLimit: false as const };
  as.use(
    mcpAuthRouter({
      provider,
      issuerUrl,
      scopesSupported: ["mcp:tools"],
      authorizationOptions: off,
      clientRegistrationOptions: off,
      revocationOptions: off,
      tokenOptions: off,
    }),
  );
  asBound.server.on("request", as);

  // The resource server: the MCP endpoint, behind bearer auth.
  const rs = express();
  const rsBound = await bound();
  const mcpUrl = new URL(`http://127.0.0.1:${rsBound.port}/mcp`);
  rs.use(
    mcpAuthMetadataRouter({
      oauthMetadata: createOAuthMetadata({ provider, issuerUrl, scopesSupported: ["mcp:tools"] }),
      resourceServerUrl: mcpUrl,
      scopesSupported: ["mcp:tools"],
      resourceName: "Protected test server",
    }),
  );
  rs.use(express.json());
  rs.all(
    "/mcp",
    requireBearerAuth({
      verifier: provider,
      resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl),
    }),
    async (req, res) => {
      const login = String(req.auth?.extra?.login ?? "");
      seen.push({
        login,
        method: String(req.body?.method ?? req.method),
        authorization: req.headers.authorization ?? "",
      });
      // A tool that needs more than the advertised scope: a step-up, as the spec describes it.
      const body = req.body as { method?: string; params?: { name?: string } } | undefined;
      const scopes = req.auth?.scopes ?? [];
      if (
        body?.method === "tools/call" &&
        body.params?.name === "admin_report" &&
        !scopes.includes(ADMIN_SCOPE)
      ) {
        const metadata = getOAuthProtectedResourceMetadataUrl(mcpUrl);
        res.set(
          "WWW-Authenticate",
          `Bearer error="insufficient_scope", scope="${[...scopes, ADMIN_SCOPE].join(" ")}", resource_metadata="${metadata}", error_description="admin_report needs ${ADMIN_SCOPE}"`,
        );
        return void res.status(403).json({ error: "insufficient_scope" });
      }
      // Stateless: every request is its own session, so each one shows its token.
      const server = new McpServer({ name: "protected", version: "1.0.0" });
      // Both tools only read, and say so: these tests are about sign-in, not approvals.
      const readOnly = { readOnlyHint: true };
      server.registerTool(
        "whoami",
        { description: "Says who signed in.", annotations: readOnly },
        async () => ({
          content: [{ type: "text", text: `signed in as ${login}` }],
        }),
      );
      server.registerTool(
        "admin_report",
        {
          description: `A report for administrators (needs the ${ADMIN_SCOPE} scope).`,
          annotations: readOnly,
        },
        async () => ({
          content: [
            { type: "text", text: `admin report for ${login} (scopes: ${scopes.join(" ")})` },
          ],
        }),
      );
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      res.on("close", () => void transport.close());
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    },
  );
  rsBound.server.on("request", rs);

  const close = (s: Server) => new Promise<void>((r) => s.close(() => r()));
  return {
    url: mcpUrl.href,
    issuer: issuerUrl.href.replace(/\/$/, ""),
    stop: async () => {
      asBound.server.closeAllConnections();
      rsBound.server.closeAllConnections();
      await Promise.all([close(asBound.server), close(rsBound.server)]);
    },
  };
}
