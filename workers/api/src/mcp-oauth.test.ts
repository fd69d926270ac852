// MCP sign-in through the API, against a real OAuth authorization server and protected MCP
// server on 127.0.0.1 (built from the MCP SDK's server-side auth; see test/oauth-protected-server).
import { env } from "cloudflare:test";
import { expect, inject, it } from "vitest";
import { backgroundProvider } from "../../../durable-objects/mcp/oauth/background-provider";
import { secretBox } from "../../../durable-objects/mcp/oauth/secret-box";
import { McpServerTest } from "../../../durable-objects/protocol/rest";
import { api, createUser } from "../../../tests/support/helpers";
import {
  addServer,
  callback,
  connect,
  consent,
  control,
  seenBy,
  serverState,
  signIn,
} from "../../../tests/support/oauth-helpers";

const { url, issuer } = inject("oauth");
const login = () => `user-${crypto.randomUUID().slice(0, 8)}`;

async function probe(user: Awaited<ReturnType<typeof createUser>>, path: string, json?: object) {
  const res = await api(user, path, { method: "POST", ...(json && { json }) });
  expect(res.status).toBe(200);
  return McpServerTest.parse(await res.json());
}

it("the connection test says a protected server needs sign-in instead of failing", async () => {
  const user = await createUser();
  const before = await probe(user, "/api/mcp-servers/test", { url });
  expect(before).toMatchObject({ ok: false, error: { code: "needs_sign_in" } });
  const id = await addServer(user, "protected", url);
  const saved = await probe(user, `/api/mcp-servers/${id}/test`);
  expect(saved).toMatchObject({ ok: false, error: { code: "needs_sign_in" } });
  expect((await serverState(user, id)).signIn?.status).toBe("needs_sign_in");
});

it("Connect → consent → callback: connected, with scopes, and the test lists the tools", async () => {
  const user = await createUser();
  const id = await addServer(user, "protected", url);
  const started = await connect(user, id);
  if (started.kind !== "redirect") throw new Error(JSON.stringify(started));
  const auth = new URL(started.authorizationUrl);
  // PKCE S256, the resource indicator, a state, and the scope the server publishes.
  expect(auth.searchParams.get("code_challenge_method")).toBe("S256");
  expect(auth.searchParams.get("resource")).toBe(url);
  expect(auth.searchParams.get("state")).toMatch(/^[\w-]{40,}$/);
  expect(auth.searchParams.get("scope")).toBe("mcp:tools");

  const back = await consent(started.authorizationUrl, { login: login() });
  const page = await callback(back);
  expect(page.status).toBe(200);
  expect(page.html).toContain("Connected to protected");
  expect(page.headers.get("content-security-policy")).toMatch(/script-src 'nonce-/);

  const state = await serverState(user, id);
  expect(state.signIn).toMatchObject({ status: "connected", scopes: "mcp:tools" });
  const tested = await probe(user, `/api/mcp-servers/${id}/test`);
  expect(tested).toMatchObject({ ok: true, tools: [{ name: "whoami" }, { name: "admin_report" }] });

  // A state works once.
  const again = await callback(back);
  expect(again.status).toBe(400);
  expect(again.html).toMatch(/unknown, was already used/);
});

it("tokens are sealed at rest, and the API never returns them", async () => {
  const user = await createUser();
  const id = await addServer(user, "protected", url);
  const name = login();
  await signIn(user, id, name);
  const row = await env.DB.prepare(
    "SELECT tokens, client_info FROM mcp_oauth_connections WHERE server_id = ?",
  )
    .bind(id)
    .first<{ tokens: string; client_info: string }>();
  expect(row?.tokens).toMatch(/^v1\.test\./);
  // Neither token the server issued (`at-<login>-…`, `rt-<login>-…`) is there in the clear. Not
  // just `at-`: the sealed text's random base64url characters spell that now and then.
  expect(row?.tokens).not.toContain(`at-${name}-`);
  expect(row?.tokens).not.toContain(`rt-${name}-`);
  const listed = await (await api(user, "/api/mcp-servers")).text();
  expect(listed).not.toMatch(/at-user|rt-user|access_token|refresh_token/);
});

it("the callback refuses a state another signed-in user started, and an expired one", async () => {
  const alice = await createUser();
  const bob = await createUser();
  const id = await addServer(alice, "protected", url);
  // Bob's browser (with his session) cannot complete Alice's sign-in.
  const session = await api(null, "/api/session", { method: "POST", json: { token: bob.token } });
  const cookie = session.headers.get("set-cookie")!.split(";")[0]!;
  const second = await connect(alice, id);
  if (second.kind !== "redirect") throw new Error("expected a redirect");
  const back2 = await consent(second.authorizationUrl, { login: login() });
  const refused = await api(null, back2, { headers: { cookie } });
  expect(refused.status).toBe(400);
  expect(await refused.text()).toMatch(/belongs to someone else/);

  const third = await connect(alice, id);
  if (third.kind !== "redirect") throw new Error("expected a redirect");
  const back3 = await consent(third.authorizationUrl, { login: login() });
  await env.DB.prepare("UPDATE mcp_oauth_pending SET created_at = created_at - 11 * 60000").run();
  const expired = await callback(back3);
  expect(expired.status).toBe(400);
  expect(expired.html).toMatch(/longer than 10 minutes/);
});

it("cancelling consent leaves a named state with a sentence, and nothing saved", async () => {
  const user = await createUser();
  const id = await addServer(user, "protected", url);
  const started = await connect(user, id);
  if (started.kind !== "redirect") throw new Error("expected a redirect");
  const page = await callback(await consent(started.authorizationUrl, { deny: true }));
  expect(page.status).toBe(400);
  expect(page.html).toMatch(/cancelled or refused/);
  const state = await serverState(user, id);
  expect(state.signIn).toMatchObject({ status: "error", errorCode: "consent_cancelled" });
  const row = await env.DB.prepare("SELECT tokens FROM mcp_oauth_connections WHERE server_id = ?")
    .bind(id)
    .first<{ tokens: string | null }>();
  expect(row?.tokens).toBeNull();
});

it("an authorization server's long error text, or a callback it garbled, still gets a page", async () => {
  const user = await createUser();
  const id = await addServer(user, "protected", url);
  const started = await connect(user, id);
  if (started.kind !== "redirect") throw new Error("expected a redirect");
  const back = new URL(await consent(started.authorizationUrl, { deny: true }), "http://x");
  back.searchParams.set("error", "server_error");
  back.searchParams.set("error_description", `Upstream directory failed. ${"x".repeat(5000)}`);
  const page = await callback(back.pathname + back.search);
  expect(page.status).toBe(400);
  expect(page.headers.get("content-type")).toMatch(/^text\/html/);
  expect(page.html).toMatch(
    /could not sign you in \(server_error: Upstream directory failed\. x+\)/,
  );
  expect((await serverState(user, id)).signIn).toMatchObject({ errorCode: "sign_in_failed" });

  back.searchParams.set("state", "s".repeat(500));
  const garbled = await callback(back.pathname + back.search);
  expect(garbled.status).toBe(400);
  expect(garbled.headers.get("content-type")).toMatch(/^text\/html/);
  expect(garbled.html).toMatch(/sign-in answer this app cannot read/);
});

it("each broken server leaves its own named state", async () => {
  const faults = inject("oauthFaults");
  const user = await createUser();

  const badMeta = await addServer(user, "bad-metadata", faults.badMetadata);
  const meta = await connect(user, badMeta);
  expect(meta).toMatchObject({ kind: "failed", problem: { code: "metadata_invalid" } });
  expect((await serverState(user, badMeta)).signIn).toMatchObject({
    status: "error",
    errorCode: "metadata_invalid",
  });

  const refused = await addServer(user, "refuses", faults.registrationRefused);
  const reg = await connect(user, refused);
  expect(reg).toMatchObject({ kind: "failed", problem: { code: "registration_refused" } });
  if (reg.kind === "failed") expect(reg.problem.message).toMatch(/pre-registered clients/);

  const broken = await addServer(user, "token-500", faults.token500);
  const started = await connect(user, broken);
  if (started.kind !== "redirect") throw new Error(JSON.stringify(started));
  const page = await callback(await consent(started.authorizationUrl, { login: login() }));
  expect(page.status).toBe(400);
  expect(page.html).toMatch(/did not issue a sign-in token/);
  expect((await serverState(user, broken)).signIn).toMatchObject({
    status: "error",
    errorCode: "token_error",
  });
});

it("a sign-in page that is not https (file:, ms-msdt:, plain http elsewhere) is never opened", async () => {
  const { url: oddUrl, issuer: oddIssuer } = inject("oauthFaults").oddAuthorization;
  const user = await createUser();
  // A server of its own for each page: a connection keeps the metadata it discovered.
  let n = 0;
  const pointAt = (page: string) =>
    fetch(new URL("/test/authorization-endpoint", oddIssuer), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: page }),
    });
  for (const [page, said] of [
    ["ms-msdt:/id PCWDiagnostic", "a ms-msdt: address"],
    ["file:///etc/passwd", "a file: address"],
    ["http://sso.example.com/authorize", "http://sso.example.com"],
  ]) {
    await pointAt(page!);
    const id = await addServer(user, `odd-page-${++n}`, oddUrl);
    const started = await connect(user, id);
    expect(started).toMatchObject({ kind: "failed", problem: { code: "metadata_invalid" } });
    if (started.kind === "failed") {
      expect(started.problem.message).toContain(said);
      expect(started.problem.message).toContain("authorization_endpoint");
    }
    expect((await serverState(user, id)).signIn).toMatchObject({ errorCode: "metadata_invalid" });
  }
  // An https page, or plain http on this machine in local development, still opens.
  await pointAt(new URL("/authorize", oddIssuer).href);
  const fine = await addServer(user, "odd-page-fixed", oddUrl);
  expect(await connect(user, fine)).toMatchObject({ kind: "redirect" });
});

it("Disconnect revokes at the server and forgets; removing a server does the same", async () => {
  const user = await createUser();
  const id = await addServer(user, "protected", url);
  await signIn(user, id, login());
  const res = await api(user, `/api/mcp-servers/${id}/disconnect`, { method: "POST" });
  expect(await res.json()).toEqual({ revoked: true });
  expect((await serverState(user, id)).signIn).toBeUndefined();
  const tested = await probe(user, `/api/mcp-servers/${id}/test`);
  expect(tested).toMatchObject({ ok: false, error: { code: "needs_sign_in" } });

  await signIn(user, id, login());
  const before = (await seenBy(issuer)).revoked.length;
  expect((await api(user, `/api/mcp-servers/${id}`, { method: "DELETE" })).status).toBe(204);
  expect((await seenBy(issuer)).revoked.length).toBeGreaterThan(before);
  const left = await env.DB.prepare(
    "SELECT count(*) AS n FROM mcp_oauth_connections WHERE server_id = ?",
  )
    .bind(id)
    .first<{ n: number }>();
  expect(left?.n).toBe(0);
});

it("serves the client metadata document", async () => {
  const res = await api(null, "/api/mcp-oauth/client-metadata.json");
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({
    client_id: "http://app.test/api/mcp-oauth/client-metadata.json",
    redirect_uris: ["http://app.test/api/mcp-oauth/callback"],
    token_endpoint_auth_method: "none",
  });
});

it("Connect pressed in two tabs at once: the sign-in finished in either tab connects", async () => {
  const user = await createUser();
  const id = await addServer(user, "protected", url);
  // Neither tab has a registration yet, so each registers its own client.
  const [first, second] = await Promise.all([connect(user, id), connect(user, id)]);
  if (first.kind !== "redirect" || second.kind !== "redirect")
    throw new Error("expected redirects");
  const clientOf = (u: string) => new URL(u).searchParams.get("client_id");
  expect(clientOf(first.authorizationUrl)).not.toBe(clientOf(second.authorizationUrl));
  for (const started of [first, second]) {
    const page = await callback(await consent(started.authorizationUrl, { login: login() }));
    expect(page.html).toContain("Connected to protected");
    expect(page.status).toBe(200);
    const tested = await probe(user, `/api/mcp-servers/${id}/test`);
    expect(tested).toMatchObject({ ok: true });
  }
});

it("a Connect with a typed client ID that is not finished keeps the sign-in that works", async () => {
  const user = await createUser();
  const id = await addServer(user, "protected", url);
  const name = login();
  await signIn(user, id, name);
  // The user tries a client ID of their own, then closes the popup without signing in.
  const started = await connect(user, id, { clientId: "typed-by-hand" });
  expect(started.kind).toBe("redirect");
  expect((await serverState(user, id)).signIn?.status).toBe("connected");
  // The next refresh still comes from the client the tokens were issued to.
  await control(issuer, "expire", name);
  const tested = await probe(user, `/api/mcp-servers/${id}/test`);
  expect(tested).toMatchObject({ ok: true });
});

it("Disconnect during a turn's token refresh: the refreshed tokens are not stored again", async () => {
  const user = await createUser();
  const id = await addServer(user, "protected", url);
  await signIn(user, id, login());
  // A turn's refresh has read the tokens and is waiting for the token endpoint...
  const turn = backgroundProvider(
    env.DB,
    await secretBox(env),
    user.id,
    { id, name: "protected", headers: {} },
    "http://localhost",
  )!;
  await turn.tokens();
  // ...when the user presses Disconnect...
  const res = await api(user, `/api/mcp-servers/${id}/disconnect`, { method: "POST" });
  expect(res.status).toBe(200);
  // ...and then the refresh answers.
  await turn.saveTokens({
    access_token: "at-late",
    refresh_token: "rt-late",
    token_type: "bearer",
  });
  const row = await env.DB.prepare(
    "SELECT tokens FROM mcp_oauth_connections WHERE server_id = ? AND user_id = ?",
  )
    .bind(id, user.id)
    .first<{ tokens: string | null }>();
  expect(row?.tokens ?? null).toBeNull();
  expect((await serverState(user, id)).signIn?.status ?? "needs_sign_in").not.toBe("connected");
});
