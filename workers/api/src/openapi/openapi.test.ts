// The OpenAPI document lists every route the app has, and answers match their schemas.
import { Validator } from "@cfworker/json-schema";
import { env } from "cloudflare:test";
import { expect, it } from "vitest";
import { api, createConversation, createUser } from "../../../../tests/support/helpers";
import app from "../app";
import { OPENAPI_PATH } from "./document";

interface Document {
  openapi: string;
  paths: Record<string, Record<string, { summary?: string; responses?: object }>>;
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
