import { Validator } from "@cfworker/json-schema";
import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { BASE, type Connected, connect, text, TOKEN, worker } from "../test/mcp-client";
import handler from "./index";
import type { McpEnv } from "./env";

let mcp: Connected;
beforeAll(async () => {
  mcp = await connect();
});
afterEach(() => vi.restoreAllMocks());

const listBody = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
const post = (headers: Record<string, string>) =>
  new Request(BASE, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: listBody,
  });
const withEnv = (overrides: Partial<McpEnv>) =>
  ({ ...(env as unknown as McpEnv), ...overrides }) as McpEnv;

describe("the server over real streamable HTTP", () => {
  it("initialises at protocol 2025-11-25 with tools, prompts, resources and logging", () => {
    expect(mcp.transport.protocolVersion).toBe("2025-11-25");
    expect(mcp.client.getServerVersion()?.name).toBe("thinking-chat-tools");
    expect(mcp.client.getServerCapabilities()).toMatchObject({
      tools: {},
      prompts: {},
      resources: {},
      logging: {},
    });
  });

  it("advertises only what a stateless server can do: no list_changed it could never send", () => {
    const caps = mcp.client.getServerCapabilities();
    expect(caps?.tools?.listChanged).toBe(false);
    expect(caps?.prompts?.listChanged).toBe(false);
    expect(caps?.resources).toEqual({ listChanged: false });
    expect(caps?.logging).toEqual({});
  });

  it("lists every tool with a title, valid JSON Schemas and truthful annotations", async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "graph_merge",
      "graph_neighbors",
      "graph_path",
      "graph_read",
      "graph_remove",
      "pubmed_fetch",
      "pubmed_search",
      "pubtator_annotations",
      "render_chart",
      "trial_get",
      "trials_search",
    ]);
    for (const t of tools) {
      expect(t.title, t.name).toBeTruthy();
      expect(t.description, t.name).toBeTruthy();
      expect(t.inputSchema.type).toBe("object");
      // A schema that compiles and refuses a non-object is a working JSON Schema.
      expect(new Validator(t.inputSchema as never).validate("not an object").valid).toBe(false);
      if (t.outputSchema)
        expect(new Validator(t.outputSchema as never).validate(42).valid, t.name).toBe(false);
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.graph_remove?.annotations).toMatchObject({
      destructiveHint: true,
      readOnlyHint: false,
      openWorldHint: false,
    });
    expect(byName.graph_read?.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.graph_merge?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
    });
    for (const name of ["pubmed_search", "pubmed_fetch", "pubtator_annotations", "trials_search"])
      expect(byName[name]?.annotations, name).toMatchObject({
        openWorldHint: true,
        readOnlyHint: true,
      });
    expect(byName.render_chart?.annotations).toMatchObject({ openWorldHint: false });
    // Structured results declare their shape.
    expect(byName.pubmed_fetch?.outputSchema?.properties).toHaveProperty("bibliography");
    expect(byName.graph_read?.outputSchema?.required).toEqual(["nodes", "links"]);
  });

  it("answers bad arguments with isError results that name the problem", async () => {
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ["trial_get", { nctId: "12345" }, /NCT01234567/],
      ["pubmed_fetch", { pmids: ["abc"] }, /PMID/],
      ["pubmed_search", { query: "x", minDate: "last year" }, /YYYY/],
      ["pubmed_search", {}, /query/],
      ["render_chart", { type: "donut", series: [{ values: [1] }] }, /type/],
      ["trials_search", { pageSize: 5 }, /condition, intervention or location/],
      ["graph_read", {}, /databaseContext/],
    ];
    for (const [name, args, pattern] of cases) {
      const r = await mcp.client.callTool({ name, arguments: args });
      expect(r.isError, name).toBe(true);
      expect(text(r), name).toMatch(pattern);
    }
  });

  it("answers GET /health, 405 to a standing stream (it is stateless) and 404 elsewhere", async () => {
    const stream = await worker.fetch(
      new Request(BASE, {
        headers: { authorization: `Bearer ${TOKEN}`, accept: "text/event-stream" },
      }),
    );
    expect(stream.status).toBe(405);
    expect(stream.headers.get("mcp-session-id")).toBeNull();
    const health = await worker.fetch(new Request("https://mcp.test/health"));
    expect(await health.json()).toEqual({ ok: true, service: "mcp-remote" });
    expect((await worker.fetch(new Request("https://mcp.test/other"))).status).toBe(404);
  });
});

describe("who may call", () => {
  it("refuses a request without the token or with a wrong one", async () => {
    const none = await worker.fetch(post({}));
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await none.json()).toMatchObject({ error: { data: { code: "unauthorized" } } });
    expect((await worker.fetch(post({ authorization: "Bearer nope" }))).status).toBe(401);
    expect((await worker.fetch(post({ authorization: `Basic ${TOKEN}` }))).status).toBe(401);
  });

  it("tells a wrong token from a missing one in WWW-Authenticate (RFC 6750)", async () => {
    const none = await worker.fetch(post({}));
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="mcp"');
    const basic = await worker.fetch(post({ authorization: `Basic ${TOKEN}` }));
    expect(basic.headers.get("www-authenticate")).toBe('Bearer realm="mcp"');
    const wrong = await worker.fetch(post({ authorization: "Bearer nope" }));
    expect(wrong.headers.get("www-authenticate")).toMatch(
      /^Bearer realm="mcp", error="invalid_token", error_description="[^"]+"$/,
    );
  });

  it("refuses a foreign Origin and accepts one listed in ALLOWED_ORIGINS", async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const foreign = await worker.fetch(post({ ...auth, origin: "https://evil.example" }));
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ error: { data: { code: "forbidden_origin" } } });
    const listed = await handler.fetch(
      post({ ...auth, origin: "http://localhost:6274" }),
      withEnv({ ALLOWED_ORIGINS: "http://localhost:6274" }),
    );
    expect(listed.status).toBe(200);
  });

  it("lets a page at an allowed origin through CORS: preflight without a token, readable answers", async () => {
    const inspector = "http://localhost:6274";
    const listed = withEnv({ ALLOWED_ORIGINS: inspector });
    const preflight = (origin: string) =>
      new Request(BASE, {
        method: "OPTIONS",
        headers: {
          origin,
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization, content-type, mcp-protocol-version",
        },
      });
    const ok = await handler.fetch(preflight(inspector), listed);
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe(inspector);
    expect(ok.headers.get("access-control-allow-methods")).toBe("POST");
    for (const h of ["authorization", "content-type", "mcp-protocol-version", "mcp-session-id"])
      expect(ok.headers.get("access-control-allow-headers")).toContain(h);
    const foreign = await handler.fetch(preflight("https://evil.example"), listed);
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();

    const init = new Request(BASE, {
      method: "POST",
      headers: {
        origin: inspector,
        authorization: `Bearer ${TOKEN}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "i", version: "1" },
        },
      }),
    });
    const answered = await handler.fetch(init, listed);
    expect(answered.status).toBe(200);
    expect(answered.headers.get("access-control-allow-origin")).toBe(inspector);
    expect(answered.headers.get("access-control-expose-headers")).toContain("mcp-session-id");
    expect(answered.headers.get("mcp-session-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(await answered.text()).toContain('"protocolVersion":"2025-11-25"');
    // A wrong token is readable too, so the page can show why.
    const unauthorised = await handler.fetch(post({ origin: inspector }), listed);
    expect(unauthorised.status).toBe(401);
    expect(unauthorised.headers.get("access-control-allow-origin")).toBe(inspector);
    expect(unauthorised.headers.get("access-control-expose-headers")).toContain("www-authenticate");
  });

  it("refuses a rebinding Host in development and one not in ALLOWED_HOSTS", async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const rebound = new Request("http://attacker.example:8788/mcp", post(auth));
    expect((await handler.fetch(rebound, withEnv({ APP_ENV: "development" }))).status).toBe(403);
    const local = new Request("http://127.0.0.1:8788/mcp", post(auth));
    expect((await handler.fetch(local, withEnv({ APP_ENV: "development" }))).status).toBe(200);
    const unlisted = await handler.fetch(post(auth), withEnv({ ALLOWED_HOSTS: "mcp.example.com" }));
    expect(unlisted.status).toBe(403);
    const listed = await handler.fetch(post(auth), withEnv({ ALLOWED_HOSTS: "mcp.test" }));
    expect(listed.status).toBe(200);
  });

  it("answers our API worker's binding whatever ALLOWED_HOSTS names", async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const viaBinding = new Request("https://mcp-remote.internal/mcp", post(auth));
    const env = withEnv({ APP_ENV: "production", ALLOWED_HOSTS: "mcp.example.com" });
    expect((await handler.fetch(viaBinding, env)).status).toBe(200);
    const noToken = new Request("https://mcp-remote.internal/mcp", post({}));
    expect((await handler.fetch(noToken, env)).status).toBe(401);
  });

  it("without a configured token: open in development with one warning, closed otherwise", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const dev = withEnv({ APP_ENV: "development", MCP_REMOTE_TOKEN: undefined });
    const local = () => new Request("http://localhost:8788/mcp", post({}));
    expect((await handler.fetch(local(), dev)).status).toBe(200);
    expect((await handler.fetch(local(), dev)).status).toBe(200);
    expect(warn).toHaveBeenCalledTimes(1);
    const prod = withEnv({ APP_ENV: "production", MCP_REMOTE_TOKEN: undefined });
    const closed = await handler.fetch(post({ authorization: "Bearer anything" }), prod);
    expect(closed.status).toBe(401);
    expect(await closed.json()).toMatchObject({ error: { data: { code: "not_configured" } } });
  });
});
