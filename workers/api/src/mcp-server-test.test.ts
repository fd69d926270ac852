// "Test the connection" for MCP servers: against server-everything and misbehaving servers on
// 127.0.0.1 (allowed here because the test worker runs with APP_ENV=development).
import { env } from "cloudflare:test";
import { afterEach, expect, inject, it, vi } from "vitest";
import app from "./app";
import { McpServerTest } from "../../../durable-objects/protocol/rest";
import { probeServer } from "../../../durable-objects/mcp/probe-server";
import { api, createConversation, createUser, errorOf } from "../../../tests/support/helpers";
import { TestSocket, turnEnded } from "../../../tests/support/ws-client";

async function testResult(res: Response): Promise<McpServerTest> {
  expect(res.status).toBe(200);
  return McpServerTest.parse(await res.json());
}

const local = { kind: "internet", allowLocal: true } as const;

afterEach(() => vi.restoreAllMocks());

it("a URL before saving: server-everything's real tools, with titles and descriptions", async () => {
  const user = await createUser();
  const result = await testResult(
    await api(user, "/api/mcp-servers/test", {
      method: "POST",
      json: { url: inject("everythingUrl") },
    }),
  );
  if (!result.ok) throw new Error(result.error.message);
  expect(result.serverInfo.name).toMatch(/everything/i);
  expect(result.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(result.tools.map((t) => t.name)).toEqual(
    expect.arrayContaining(["echo", "get-sum", "trigger-long-running-operation"]),
  );
  expect(result.tools.find((t) => t.name === "echo")).toEqual({
    name: "echo",
    title: "Echo Tool",
    description: expect.stringMatching(/echo/i),
    // Only the hints that decide the approval policy (idempotentHint is left out).
    annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  });
});

it("a saved server is tested with its real header values, not the masked ones", async () => {
  const user = await createUser();
  const created = await api(user, "/api/mcp-servers", {
    method: "POST",
    json: {
      name: "everything",
      url: inject("everythingUrl"),
      headers: { "X-Api-Key": "secret-value-1234" },
    },
  });
  const { id } = (await created.json()) as { id: string };
  const sent: string[] = [];
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
    sent.push(new Request(input, init).headers.get("x-api-key") ?? "");
    return realFetch(input, init);
  });
  const result = await testResult(
    await api(user, `/api/mcp-servers/${id}/test`, { method: "POST" }),
  );
  expect(result.ok).toBe(true);
  expect(sent.length).toBeGreaterThan(0);
  expect(new Set(sent)).toEqual(new Set(["secret-value-1234"]));
});

it("another user's server, or one that does not exist, is 404", async () => {
  const alice = await createUser();
  const bob = await createUser();
  const created = await api(alice, "/api/mcp-servers", {
    method: "POST",
    json: { name: "mine", url: inject("everythingUrl") },
  });
  const { id } = (await created.json()) as { id: string };
  const res = await api(bob, `/api/mcp-servers/${id}/test`, { method: "POST" });
  expect(res.status).toBe(404);
  expect((await errorOf(res)).code).toBe("not_found");
  expect((await api(bob, "/api/mcp-servers/nope/test", { method: "POST" })).status).toBe(404);
  expect((await api(null, `/api/mcp-servers/${id}/test`, { method: "POST" })).status).toBe(401);
});

it("an unreachable port says the server could not be reached and what to check", async () => {
  const user = await createUser();
  const result = await testResult(
    await api(user, "/api/mcp-servers/test", {
      method: "POST",
      json: { url: "http://127.0.0.1:1/mcp" },
    }),
  );
  expect(result).toMatchObject({
    ok: false,
    error: {
      code: "unreachable",
      message: expect.stringMatching(/Could not connect to 127\.0\.0\.1:1 .*Check the URL/),
    },
  });
});

it("a metadata or private address is refused before any request", async () => {
  const user = await createUser();
  const spy = vi.spyOn(globalThis, "fetch");
  for (const url of ["http://169.254.169.254/latest/meta-data", "https://10.0.0.7/mcp"]) {
    const result = await testResult(
      await api(user, "/api/mcp-servers/test", { method: "POST", json: { url } }),
    );
    expect(result).toMatchObject({
      ok: false,
      error: { code: "refused_url", message: expect.stringContaining("not allowed") },
    });
  }
  // Other conversations in this runtime may still be asking the test model (a title, say): only
  // their requests, to the model's address, are not this route's.
  const model = new URL(inject("aimockUrl")).host;
  const requested = spy.mock.calls.map(([input]) =>
    input instanceof Request ? input.url : String(input),
  );
  expect(requested.filter((url) => new URL(url).host !== model)).toEqual([]);
});

it("bodies are checked: a URL that is not one, an unknown field, a bad header name", async () => {
  const user = await createUser();
  for (const json of [
    { url: "not a url" },
    { url: "https://mcp.example.com/mcp", extra: 1 },
    { url: "https://mcp.example.com/mcp", headers: { "bad header": "x" } },
  ]) {
    const res = await api(user, "/api/mcp-servers/test", { method: "POST", json });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe("validation_failed");
  }
});

it("a web page instead of an MCP endpoint says so", async () => {
  const user = await createUser();
  const result = await testResult(
    await api(user, "/api/mcp-servers/test", {
      method: "POST",
      json: { url: `${inject("faultyUrl")}/page` },
    }),
  );
  expect(result).toMatchObject({
    ok: false,
    error: { code: "not_mcp", message: expect.stringContaining("not a web page") },
  });
});

it("a server that never answers times out with the time it was given", async () => {
  const result = await probeServer({
    url: `${inject("faultyUrl")}/hang`,
    via: local,
    timeoutMs: 500,
  });
  expect(result).toMatchObject({
    ok: false,
    error: { code: "timeout", message: expect.stringContaining("within 1 s") },
  });
});

it("401 and 403 point at the headers, with the server's own words", async () => {
  for (const status of [401, 403]) {
    const result = await probeServer({
      url: "https://mcp.example.com/mcp",
      headers: { authorization: "Bearer expired" },
      via: {
        ...local,
        fetch: async () =>
          new Response(JSON.stringify({ error: "invalid_token" }), {
            status,
            headers: { "content-type": "application/json" },
          }),
      },
    });
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: "unauthorized",
        message: expect.stringMatching(/Check the headers.*invalid_token/),
      },
    });
  }
});

it("a 404 names the path, a 500 the server", async () => {
  const answer = (status: number) => ({
    ...local,
    fetch: async () => new Response("nope", { status }),
  });
  const notFound = await probeServer({ url: "https://mcp.example.com/v1", via: answer(404) });
  expect(notFound).toMatchObject({ ok: false, error: { code: "not_found" } });
  expect(!notFound.ok && notFound.error.message).toContain("/mcp");
  const broken = await probeServer({ url: "https://mcp.example.com/mcp", via: answer(502) });
  expect(broken).toMatchObject({ ok: false, error: { code: "server_error" } });
});

it("a redirect to a private address is refused", async () => {
  const result = await probeServer({
    url: "https://mcp.example.com/mcp",
    via: {
      kind: "internet",
      allowLocal: false,
      fetch: async () =>
        new Response(null, { status: 307, headers: { location: "http://192.168.1.1/mcp" } }),
    },
  });
  expect(result).toMatchObject({ ok: false, error: { code: "refused_url" } });
});

// In this project MCP_REMOTE is a stand-in that answers 404 (our MCP worker has its own test
// project; tests/e2e runs both), so only the failure is testable here.
it("the built-in server's test explains a missing MCP worker", async () => {
  const user = await createUser();
  const result = await testResult(
    await api(user, "/api/mcp-servers/builtin/test", { method: "POST" }),
  );
  expect(result).toMatchObject({
    ok: false,
    error: {
      code: "not_found",
      message: expect.stringMatching(/built-in MCP server 'mcp-remote'.*MCP_REMOTE/),
    },
  });
});

it("the built-in server's test names MCP_REMOTE_TOKEN when our MCP worker refuses the API's token", async () => {
  const user = await createUser();
  // Our MCP worker answers 401 to a bearer token other than its own MCP_REMOTE_TOKEN.
  const refusing = {
    fetch: async () =>
      Response.json(
        { error: "unauthorized" },
        { status: 401, headers: { "content-type": "application/json" } },
      ),
  };
  const result = await testResult(
    await app.request(
      "http://app.test/api/mcp-servers/builtin/test",
      { method: "POST", headers: { Authorization: `Bearer ${user.token}` } },
      { ...env, MCP_REMOTE: refusing },
    ),
  );
  expect(result).toMatchObject({
    ok: false,
    error: {
      code: "unauthorized",
      message: expect.stringMatching(/MCP_REMOTE_TOKEN must be the same in both workers/),
    },
  });
});

it("a server that only speaks an unsupported protocol version says so, not that it is unreachable", async () => {
  const user = await createUser();
  const result = await testResult(
    await api(user, "/api/mcp-servers/test", {
      method: "POST",
      json: { url: `${inject("faultyUrl")}/old-protocol` },
    }),
  );
  expect(result).toMatchObject({
    ok: false,
    error: { code: "protocol_error", message: expect.stringContaining("version 2023-01-01") },
  });
  expect(!result.ok && result.error.message).not.toMatch(/Check the URL/);
});

it("credentials stop at a redirect to another origin, for the connection test, a saved server and a turn; 307 and 308 work", async () => {
  const user = await createUser();
  const name = crypto.randomUUID().slice(0, 8);
  const target = inject("changingUrl").replace(/\/mcp$/, `/${name}/mcp`);
  const seen = async () =>
    ((await (await fetch(target.replace(/\/mcp$/, "/state"))).json()) as { credentials: string[] })
      .credentials;
  const headers = { Authorization: "Bearer user-secret", "X-Api-Key": "key-1234" };
  for (const status of [307, 308]) {
    const url = `${inject("faultyUrl")}/redirect/${status}?to=${encodeURIComponent(target)}`;
    const tested = await testResult(
      await api(user, "/api/mcp-servers/test", { method: "POST", json: { url, headers } }),
    );
    expect(tested, `${status}`).toMatchObject({ ok: true, serverInfo: { name: "changing" } });
  }
  const url = `${inject("faultyUrl")}/redirect/307?to=${encodeURIComponent(target)}`;
  const created = await api(user, "/api/mcp-servers", {
    method: "POST",
    json: { name: "changing", url, headers },
  });
  const { id } = (await created.json()) as { id: string };
  expect(
    await testResult(await api(user, `/api/mcp-servers/${id}/test`, { method: "POST" })),
  ).toMatchObject({ ok: true });
  const conv = await createConversation(user);
  const ws = await TestSocket.open(user, conv.id);
  ws.send({ type: "resume", lastSeq: 0 });
  ws.send({ type: "send", clientMessageId: "r1", text: "add a tool please" });
  await ws.until(turnEnded, 30_000);
  ws.close();
  expect(ws.events().find((e) => e.type === "tool_result")).toMatchObject({
    isError: false,
    summary: expect.stringContaining("new_tool was added"),
  });
  expect(await seen()).toEqual([]);
});

it("a tool's approval hints come with it, so Settings can show its default policy", async () => {
  const user = await createUser();
  const result = await testResult(
    await api(user, "/api/mcp-servers/test", {
      method: "POST",
      json: { url: inject("approvalUrl") },
    }),
  );
  if (!result.ok) throw new Error(result.error.message);
  expect(result.tools.find((t) => t.name === "delete_note")?.annotations).toEqual({
    readOnlyHint: false,
    destructiveHint: true,
  });
  expect(result.tools.find((t) => t.name === "list_notes")?.annotations).toEqual({
    readOnlyHint: true,
  });
});
