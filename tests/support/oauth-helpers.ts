// Drives an MCP sign-in the way a browser would: Connect, the authorization server's consent
// page (automatic in the test server: `login` says who signs in), then our callback.
import { expect } from "vitest";
import { McpConnectResult, McpServer } from "../../durable-objects/protocol/rest";
import { api, BASE, type TestUser } from "./helpers";

export async function addServer(user: TestUser, name: string, url: string): Promise<string> {
  const res = await api(user, "/api/mcp-servers", { method: "POST", json: { name, url } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

export async function connect(user: TestUser, serverId: string, body: object = {}) {
  const res = await api(user, `/api/mcp-servers/${serverId}/connect`, {
    method: "POST",
    json: body,
  });
  expect(res.status).toBe(200);
  return McpConnectResult.parse(await res.json());
}

/** The consent page: where the authorization server sends the browser back to. */
export async function consent(
  authorizationUrl: string,
  choice: { login: string } | { deny: true },
): Promise<string> {
  const url = new URL(authorizationUrl);
  if ("login" in choice) url.searchParams.set("login", choice.login);
  else url.searchParams.set("deny", "1");
  const res = await fetch(url, { redirect: "manual" });
  expect(res.status).toBe(302);
  const back = new URL(res.headers.get("location")!);
  expect(back.origin + back.pathname).toBe(`${BASE}/api/mcp-oauth/callback`);
  return back.pathname + back.search;
}

export async function callback(path: string, user: TestUser | null = null) {
  const res = await api(user, path);
  return { status: res.status, html: await res.text(), headers: res.headers };
}

/** Connect, consent as `login`, callback: the whole sign-in. */
export async function signIn(user: TestUser, serverId: string, login: string) {
  const started = await connect(user, serverId);
  if (started.kind !== "redirect") throw new Error(JSON.stringify(started));
  const done = await callback(await consent(started.authorizationUrl, { login }));
  expect(done.status, done.html).toBe(200);
}

export async function serverState(user: TestUser, serverId: string): Promise<McpServer> {
  const res = await api(user, "/api/mcp-servers");
  const { items } = (await res.json()) as { items: unknown[] };
  const found = items.map((i) => McpServer.parse(i)).find((s) => s.id === serverId);
  if (!found) throw new Error("server not listed");
  return found;
}

export async function seenBy(issuer: string) {
  const res = await fetch(`${issuer}/test/seen`);
  return (await res.json()) as {
    seen: Array<{ login: string; method: string; authorization: string }>;
    revoked: string[];
  };
}

export const control = (issuer: string, what: "expire" | "revoke", login: string) =>
  fetch(`${issuer}/test/${what}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ login }),
  });
