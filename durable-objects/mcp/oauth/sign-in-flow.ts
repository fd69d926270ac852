// Connect, callback and Disconnect for one (user, server), on top of the SDK's auth(): it does
// discovery (RFC 9728, RFC 8414 / OpenID), registration (metadata document or RFC 7591), PKCE,
// `resource` and `state`; we give it a D1-backed provider and a fetch that passes the SSRF guard.
import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import { z } from "zod";
import { authorizationPageProblem } from "./authorization-page";
import type { CallbackQuery } from "./callback-query";
import { fetchFor, internetRoute } from "../mcp-route";
import { callbackUrl, clientMetadataUrl } from "./client-metadata";
import {
  type ConnectionKey,
  deleteConnection,
  type Display,
  PENDING_TTL_MS,
  readConnection,
  takePending,
  writeConnection,
} from "./connection-store";
import { D1OAuthProvider, sha256Hex } from "./d1-oauth-provider";
import { unionScopes } from "./scopes";
import type { SecretBox } from "./secret-box";
import { signInChallenge } from "./sign-in-challenge";
import { describeSignInError, type FailureContext, type SignInProblem } from "./sign-in-errors";

export interface OAuthServer {
  id: string;
  name: string;
  url: string;
}

export interface SignInDeps {
  db: D1Database;
  box: SecretBox;
  /** The app's origin: the callback and the client metadata document live there. */
  origin: string;
  allowLocal: boolean;
  /** DNS-over-HTTPS resolver that vouches for names outside development. */
  dnsResolver?: string | undefined;
  fetch?: typeof fetch;
}

/** The same checks as MCP requests: the URL, the addresses its name resolves to, every redirect. */
function guardedFetch(deps: SignInDeps): typeof fetch {
  const route = internetRoute({ allowLocal: deps.allowLocal, dnsResolver: deps.dnsResolver });
  return fetchFor(
    deps.fetch && route.kind === "internet" ? { ...route, fetch: deps.fetch } : route,
  );
}

export type StartResult =
  | { kind: "redirect"; authorizationUrl: string }
  | { kind: "connected" }
  | { kind: "failed"; problem: SignInProblem };

const hostOf = (url: string) => new URL(url).host;

/** A guarded fetch that remembers the last URL, so a failure can say which step failed. */
function flowFetch(deps: SignInDeps, where: FailureContext): typeof fetch {
  const guarded = guardedFetch(deps);
  return ((input: RequestInfo | URL, init?: RequestInit) => {
    where.lastUrl = input instanceof Request ? input.url : String(input);
    return guarded(input, init);
  }) as typeof fetch;
}

function learnEndpoints(provider: D1OAuthProvider, where: FailureContext) {
  const meta = provider.discovery?.authorizationServerMetadata;
  where.registrationEndpoint = meta?.registration_endpoint;
  where.tokenEndpoint = meta?.token_endpoint;
}

async function recordFailure(db: D1Database, key: ConnectionKey, problem: SignInProblem) {
  const row = await readConnection(db, key);
  // A failed attempt never costs the user a sign-in that still works.
  await writeConnection(db, key, {
    status: row?.tokens ? row.status : "error",
    error_code: problem.code,
    error_message: problem.message,
  });
}

const Advertised = z.looseObject({
  resourceMetadata: z.looseObject({ scopes_supported: z.array(z.string()).optional() }).optional(),
});

/**
 * The scope of a sign-in: the 401's, else the SDK picks (the server's advertised scopes). After
 * a step-up request, the union of what was granted, what the server advertises or asks for now,
 * and what it asked for more.
 */
async function scopeToAsk(db: D1Database, key: ConnectionKey, challenged: string | undefined) {
  const row = await readConnection(db, key);
  if (!row?.requested_scopes) return challenged;
  let advertised: string | undefined;
  try {
    const found = Advertised.safeParse(JSON.parse(row.discovery ?? "null"));
    advertised = found.success
      ? found.data.resourceMetadata?.scopes_supported?.join(" ")
      : undefined;
  } catch {
    advertised = undefined;
  }
  return unionScopes(challenged ?? advertised, row.scopes, row.requested_scopes);
}

export async function startSignIn(
  deps: SignInDeps,
  userId: string,
  server: OAuthServer,
  opts: { display: Display; clientId?: string; clientSecret?: string },
): Promise<StartResult> {
  const key = { userId, serverId: server.id };
  const where: FailureContext = {};
  const fetchFn = flowFetch(deps, where);
  const provider = new D1OAuthProvider(
    deps.db,
    deps.box,
    key,
    callbackUrl(deps.origin),
    { kind: "interactive", display: opts.display },
    clientMetadataUrl(deps.origin),
  );
  try {
    if (opts.clientId)
      await provider.saveClientInformation({
        client_id: opts.clientId,
        ...(opts.clientSecret && { client_secret: opts.clientSecret }),
      });
    const hint = await signInChallenge(server.url, fetchFn);
    if (hint.status !== 401 && hint.status !== 403) {
      const problem: SignInProblem = {
        code: "metadata_invalid",
        message: `${hostOf(server.url)} does not ask for a sign-in (it answered HTTP ${hint.status} without one), so there is nothing to connect.`,
      };
      return { kind: "failed", problem };
    }
    const scope = await scopeToAsk(deps.db, key, hint.scope);
    const result = await auth(provider, {
      serverUrl: server.url,
      ...(hint.resourceMetadataUrl && { resourceMetadataUrl: hint.resourceMetadataUrl }),
      ...(scope && { scope }),
      fetchFn,
    });
    if (result === "REDIRECT" && provider.authorizationUrl) {
      const page = provider.authorizationUrl;
      const problem = authorizationPageProblem(page, hostOf(server.url), deps.allowLocal);
      if (!problem) return { kind: "redirect", authorizationUrl: page.href };
      await recordFailure(deps.db, key, problem);
      return { kind: "failed", problem };
    }
    return { kind: "connected" };
  } catch (err) {
    learnEndpoints(provider, where);
    const problem = describeSignInError(err, hostOf(server.url), where);
    await recordFailure(deps.db, key, problem);
    return { kind: "failed", problem };
  }
}

export type FinishResult = {
  ok: boolean;
  message: string;
  display: Display;
  serverId?: string;
};

const PendingClient = z.looseObject({
  client_id: z.string(),
  client_secret: z.string().optional(),
});
const ServerRow = z.object({ id: z.string(), name: z.string(), url: z.string() });

export async function finishSignIn(
  deps: SignInDeps,
  query: CallbackQuery,
  /** The user of the browser's session, when it sent one: another user's state is refused. */
  sessionUserId: string | null,
): Promise<FinishResult> {
  const unknown: FinishResult = {
    ok: false,
    display: "popup",
    message:
      "This sign-in link is unknown, was already used, or belongs to someone else. Start again with Connect in Settings → MCP servers.",
  };
  if (!query.state) return unknown;
  const pending = await takePending(deps.db, await sha256Hex(query.state));
  if (!pending || (sessionUserId && sessionUserId !== pending.user_id)) return unknown;
  const display = pending.display;
  if (Date.now() - pending.created_at > PENDING_TTL_MS)
    return {
      ok: false,
      display,
      serverId: pending.server_id,
      message: "This sign-in took longer than 10 minutes and has expired. Press Connect again.",
    };
  const raw = await deps.db
    .prepare("SELECT id, name, url FROM mcp_servers WHERE id = ? AND user_id = ?")
    .bind(pending.server_id, pending.user_id)
    .first();
  const server = raw ? ServerRow.safeParse(raw) : null;
  if (!server?.success) return { ...unknown, display, message: "This MCP server was removed." };
  const key = { userId: pending.user_id, serverId: server.data.id };
  const host = hostOf(server.data.url);
  const fail = async (problem: SignInProblem): Promise<FinishResult> => {
    await recordFailure(deps.db, key, problem);
    return { ok: false, display, serverId: server.data.id, message: problem.message };
  };
  if (query.error || !query.code)
    return fail(
      query.error === "access_denied" || !query.error
        ? {
            code: "consent_cancelled",
            message: `The sign-in at ${host} was cancelled or refused. Press Connect to try again.`,
          }
        : {
            code: "sign_in_failed",
            message: `${host} could not sign you in (${query.error}${query.error_description ? `: ${query.error_description.slice(0, 200)}` : ""}). Press Connect to try again.`,
          },
    );
  const where: FailureContext = {};
  const row = await readConnection(deps.db, key);
  const client = await deps.box.openJson(pending.client_info ?? null, PendingClient);
  const provider = new D1OAuthProvider(
    deps.db,
    deps.box,
    key,
    row?.redirect_url ?? callbackUrl(deps.origin),
    {
      kind: "callback",
      codeVerifier: await deps.box.open(pending.code_verifier ?? ""),
      ...(client && { client }),
    },
    clientMetadataUrl(deps.origin),
  );
  try {
    await auth(provider, {
      serverUrl: server.data.url,
      authorizationCode: query.code,
      fetchFn: flowFetch(deps, where),
    });
    return {
      ok: true,
      display,
      serverId: server.data.id,
      message: `Connected to ${server.data.name}. You can close this window.`,
    };
  } catch (err) {
    learnEndpoints(provider, where);
    return fail(describeSignInError(err, host, where));
  }
}

const Revocable = z.looseObject({
  authorizationServerMetadata: z
    .looseObject({ revocation_endpoint: z.string().url().optional() })
    .optional(),
});
const Tokens = z.looseObject({ access_token: z.string(), refresh_token: z.string().optional() });
const Client = z.looseObject({ client_id: z.string(), client_secret: z.string().optional() });

/**
 * Forgets the tokens, after asking the server to revoke them (RFC 7009) where it offers that.
 * Revocation is a courtesy: the tokens are forgotten even if the server does not answer.
 */
export async function disconnect(
  deps: SignInDeps,
  key: ConnectionKey,
): Promise<{ revoked: boolean }> {
  const row = await readConnection(deps.db, key);
  let revoked = false;
  try {
    const meta = row?.discovery ? Revocable.safeParse(JSON.parse(row.discovery)) : null;
    const endpoint = meta?.success
      ? meta.data.authorizationServerMetadata?.revocation_endpoint
      : undefined;
    const tokens = await deps.box.openJson(row?.tokens ?? null, Tokens);
    const client = await deps.box.openJson(row?.client_info ?? null, Client);
    if (endpoint && tokens && client) {
      const fetchFn = guardedFetch(deps);
      const revoke = async (token: string, hint: string) => {
        const body = new URLSearchParams({ token, token_type_hint: hint });
        const headers: Record<string, string> = {
          "content-type": "application/x-www-form-urlencoded",
        };
        if (client.client_secret)
          headers.authorization = `Basic ${btoa(`${client.client_id}:${client.client_secret}`)}`;
        else body.set("client_id", client.client_id);
        const res = await fetchFn(endpoint, { method: "POST", headers, body });
        await res.body?.cancel();
        return res.ok;
      };
      const results = await Promise.all([
        ...(tokens.refresh_token ? [revoke(tokens.refresh_token, "refresh_token")] : []),
        revoke(tokens.access_token, "access_token"),
      ]);
      revoked = results.every(Boolean);
    }
  } catch {
    revoked = false;
  }
  await deleteConnection(deps.db, key);
  return { revoked };
}
