// The OpenAPI document lists every route the app has, and answers match their schemas.
import { Validator } from "@cfworker/json-schema";
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  api,
  createConversation,
  createUser,
  type TestUser,
} from "../../../../tests/support/helpers";
import app from "../app";
import { OPENAPI_PATH } from "./document";

interface Parameter {
  in: string;
  name: string;
  schema: Record<string, unknown>;
}
interface Answer {
  description: string;
  content?: Record<string, { schema: object }>;
}
interface Operation {
  summary?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, unknown> };
  responses?: Record<string, Answer>;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas?: Record<string, unknown> };
}

const document = async () => (await (await app.request(OPENAPI_PATH, {}, env)).json()) as Document;

/** What is wrong with `value` by `schema` (JSON Schema 2020-12, as OpenAPI 3.1 uses). */
const conformsTo = (schema: object, value: unknown) =>
  new Validator(schema as never, "2020-12", false).validate(value).errors.map((e) => e.error);

/** Hono's `/a/:id` as OpenAPI's `/a/{id}`. */
const openApiPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");

it("is OpenAPI 3.1, public, and documents every route the app has", async () => {
  const res = await app.request(OPENAPI_PATH, {}, env);
  expect(res.status).toBe(200);
  const doc = (await res.json()) as Document;
  expect(doc.openapi).toBe("3.1.0");
  const routes = new Set(
    app.routes
      .filter((r) => r.method !== "ALL")
      .map((r) => `${r.method.toLowerCase()} ${openApiPath(r.path)}`),
  );
  expect(routes.size).toBeGreaterThan(40);
  const undocumented = [...routes].filter((route) => {
    const [method, path] = route.split(" ") as [string, string];
    return !doc.paths[path]?.[method]?.summary;
  });
  expect(undocumented).toEqual([]);
  // The event stream's event types are described.
  expect(JSON.stringify(doc.components.schemas?.ServerEvent)).toContain("tool_call");
});

it("answers match the schemas the document gives them", async () => {
  const doc = await document();
  const user = await createUser();
  const conversation = await createConversation(user);
  const schemaOf = (path: string, method: string, status: number) =>
    (
      doc.paths[path]![method]!.responses as Record<
        string,
        { content: Record<string, { schema: object }> }
      >
    )[status]!.content["application/json"]!.schema;

  const one = await (await api(user, `/api/conversations/${conversation.id}`)).json();
  expect(conformsTo(schemaOf("/api/conversations/{id}", "get", 200), one)).toEqual([]);
  const list = await (await api(user, "/api/conversations")).json();
  expect(conformsTo(schemaOf("/api/conversations", "get", 200), list)).toEqual([]);
  const models = await (await api(user, "/v1/models")).json();
  expect(conformsTo(schemaOf("/v1/models", "get", 200), models)).toEqual([]);
  const model = await (await api(user, "/v1/models/thinking-chat")).json();
  expect(conformsTo(schemaOf("/v1/models/{id}", "get", 200), model)).toEqual([]);
  const missing = await (await api(user, "/api/conversations/nope")).json();
  expect(conformsTo(schemaOf("/api/conversations/{id}", "get", 404), missing)).toEqual([]);
});

/** Every operation of the document, as "<method> <path>" (OpenAPI's path syntax). */
const operations = (doc: Document) =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => [`${method} ${path}`, operation] as const),
  );

describe("query parameters and headers", () => {
  // Everything a route reads from the query or its headers (besides credentials and the body's
  // Content-Type/Length), as the routes parse it.
  const READ: Record<string, string[]> = {
    "get /api/conversations": ["query limit", "query cursor", "query q", "query include"],
    "get /api/conversations/{id}/messages": ["query after", "query limit"],
    "get /api/conversations/{id}/export": ["query format"],
    "get /api/conversations/{id}/events": ["header last-event-id", "query after", "query compact"],
    "post /api/conversations/{id}/chat": ["header last-event-id", "query after"],
    "get /api/conversations/{id}/ws": [
      ...["resume", "compact", "batch", "presence", "ticket"].map((name) => `query ${name}`),
      ...["new", "title", "templateId", "provider", "model", "mode"].map((name) => `query ${name}`),
    ],
    "get /api/usage": ["query from", "query to"],
    "get /api/users": ["query q"],
    "get /api/artifacts/{id}/download": ["query attachment", "query inline"],
    "get /api/shared/{token}/artifacts/{artifactId}/download": ["query attachment", "query inline"],
    "get /api/attachment-links/{id}": ["query exp", "query sig"],
    "get /api/mcp-oauth/callback": [
      ...["state", "code", "error", "error_description"].map((name) => `query ${name}`),
    ],
    "post /v1/chat/completions": ["header X-Conversation-Id", "header Idempotency-Key"],
    "post /v1/responses": ["header X-Conversation-Id", "header Idempotency-Key"],
  };

  it("the document lists each one, with a schema, on its route and nowhere else", async () => {
    const listed = Object.fromEntries(
      operations(await document())
        .map(([key, operation]) => {
          const params = (operation.parameters ?? []).filter((p) => p.in !== "path");
          for (const p of params) expect(p.schema, `${key} ${p.name}`).toBeTypeOf("object");
          return [key, params.map((p) => `${p.in} ${p.name}`).sort()] as const;
        })
        .filter(([, params]) => params.length > 0),
    );
    const expected = Object.fromEntries(
      Object.entries(READ).map(([key, params]) => [key, [...params].sort()]),
    );
    expect(listed).toEqual(expected);
  });

  it("a parameter is described by the schema its route parses it with", async () => {
    const doc = await document();
    const user = await createUser();
    const conversation = await createConversation(user);
    const param = (key: string, name: string) => {
      const [method, path] = key.split(" ") as [string, string];
      return doc.paths[path]![method]!.parameters!.find((p) => p.name === name)!.schema;
    };
    // What the document allows, the route takes; one past it, the route refuses.
    const limit = param("get /api/conversations", "limit");
    expect(limit).toMatchObject({ type: "integer", maximum: 100 });
    expect((await api(user, `/api/conversations?limit=${String(limit.maximum)}`)).status).toBe(200);
    expect((await api(user, `/api/conversations?limit=${Number(limit.maximum) + 1}`)).status).toBe(
      400,
    );
    const messages = `/api/conversations/${conversation.id}/messages`;
    const pageSize = param("get /api/conversations/{id}/messages", "limit");
    expect(pageSize).toMatchObject({ maximum: 500 });
    expect((await api(user, `${messages}?limit=${Number(pageSize.maximum) + 1}`)).status).toBe(400);
    const compact = param("get /api/conversations/{id}/events", "compact");
    expect(compact).toMatchObject({ enum: ["0", "1"] });
    expect(
      (await api(user, `/api/conversations/${conversation.id}/events?compact=yes`)).status,
    ).toBe(400);
    expect(param("get /api/users", "q")).toMatchObject({ minLength: 1, maxLength: 100 });
    expect((await api(user, "/api/users")).status).toBe(400);
    expect(param("get /api/usage", "from")).toHaveProperty("pattern");
    expect((await api(user, "/api/usage?from=yesterday")).status).toBe(400);
  });
});

describe("error answers", () => {
  /** The document's answer for `status` on `method path`, which must carry the error schema. */
  const documented = (doc: Document, method: string, path: string, status: number) => {
    const answer = doc.paths[path]?.[method]?.responses?.[status];
    expect(answer, `${method} ${path} ${status}`).toBeDefined();
    return answer!.content?.["application/json"]?.schema;
  };

  it("each error a route really answers is documented with the shared error schema", async () => {
    const doc = await document();
    const owner = await createUser();
    const viewer = await createUser();
    const conversation = await createConversation(owner);
    const shared = await api(owner, `/api/conversations/${conversation.id}/members`, {
      method: "PUT",
      json: { user: viewer.id, role: "viewer" },
    });
    expect(shared.status).toBe(200);
    // One who left: every route of the conversation refuses them with 403.
    const former = await createUser();
    await api(owner, `/api/conversations/${conversation.id}/members`, {
      method: "PUT",
      json: { user: former.id, role: "participant" },
    });
    const left = await api(former, `/api/conversations/${conversation.id}/members/${former.id}`, {
      method: "DELETE",
    });
    expect(left.status).toBe(204);
    const server = { name: "twice", url: "https://mcp.example.com/mcp" };
    await api(owner, "/api/mcp-servers", { method: "POST", json: server });
    const huge = JSON.stringify({ title: "x".repeat(300 * 1024) });

    const cases: Array<[TestUser, string, string, RequestInit & { json?: unknown }, number]> = [
      [
        viewer,
        "post",
        "/api/conversations/{id}/chat",
        { method: "POST", json: { clientMessageId: "v1", text: "hi" } },
        403,
      ],
      [owner, "post", "/api/mcp-servers", { method: "POST", json: server }, 409],
      [
        owner,
        "post",
        "/api/conversations",
        { method: "POST", body: huge, headers: { "content-type": "application/json" } },
        413,
      ],
      [owner, "post", "/api/conversations", { method: "POST", body: "{}" }, 415],
      [owner, "get", "/api/conversations/{id}/ws", {}, 426],
      [former, "get", "/api/conversations/{id}/events", {}, 403],
      [former, "get", "/api/conversations/{id}/messages", {}, 403],
      [
        former,
        "post",
        "/v1/chat/completions",
        {
          method: "POST",
          headers: { "x-conversation-id": conversation.id },
          json: { model: "thinking-chat", messages: [{ role: "user", content: "hi" }] },
        },
        403,
      ],
    ];
    for (const [user, method, path, init, status] of cases) {
      const res = await api(user, path.replace("{id}", conversation.id), init);
      expect(res.status, `${method} ${path}`).toBe(status);
      const schema = documented(doc, method, path, status);
      expect(schema, `${method} ${path} ${status}`).toBeDefined();
      expect(conformsTo(schema!, await res.json())).toEqual([]);
    }
  });

  it("every error answer the document lists carries the error schema", async () => {
    const missing = operations(await document()).flatMap(([key, operation]) =>
      Object.entries(operation.responses ?? {})
        .filter(
          ([status, answer]) => Number(status) >= 400 && !answer.content?.["application/json"],
        )
        .map(([status]) => `${key} ${status}`),
    );
    expect(missing).toEqual([]);
  });

  it("every route that takes a body documents it, with 413 and 415", async () => {
    const doc = await document();
    const user = await createUser();
    const conversation = await createConversation(user);
    const changes = operations(doc).filter(
      ([key]) => !key.startsWith("get ") && !key.startsWith("delete ") && !key.includes(" /v1/"),
    );
    expect(changes.length).toBeGreaterThan(20);
    const undocumented: string[] = [];
    const takeBodies: string[] = [];
    for (const [key, operation] of changes) {
      const [method, path] = key.split(" ") as [string, string];
      // Plain text: a route that reads a body refuses it as 415 before it looks anything up.
      const url = path.replace("{id}", conversation.id).replace(/\{\w+\}/g, "x");
      const res = await api(user, url, { method: method.toUpperCase(), body: "hi" });
      await res.body?.cancel();
      if (res.status !== 415) continue;
      takeBodies.push(key);
      const statuses = Object.keys(operation.responses ?? {});
      if (!operation.requestBody) undocumented.push(`${key} body`);
      for (const status of ["413", "415"])
        if (!statuses.includes(status)) undocumented.push(`${key} ${status}`);
    }
    expect(takeBodies.length, takeBodies.join(", ")).toBeGreaterThan(15);
    expect(undocumented).toEqual([]);
  });

  it("approvals and elicitations say their conflict in the error schema", async () => {
    const doc = await document();
    for (const path of [
      "/api/conversations/{id}/approvals/{approvalId}",
      "/api/conversations/{id}/elicitations/{elicitationId}",
    ])
      expect(documented(doc, "post", path, 409)).toBeDefined();
  });
});
