// A deployed worker lacking a required secret refuses requests and tells its operator why.
import { env } from "cloudflare:test";
import { afterEach, expect, it, vi } from "vitest";
import app from "../app";
import { REQUIRED_SECRETS } from "./required-secrets";
import wranglerToml from "../../../../wrangler.toml?raw";

afterEach(() => vi.restoreAllMocks());

const deployed = (overrides: Record<string, string | undefined>) => ({
  ...env,
  APP_ENV: "production",
  SIGNING_SECRET: "s",
  MCP_REMOTE_TOKEN: "t",
  GRAPH_CONTEXT_SECRET: "g",
  OAUTH_ENCRYPTION_KEY: "test:dGVzdC1rZXktZm9yLW1jcC1zaWduLWluLTMyYnl0ZXM",
  ...overrides,
});

it("a production worker without GRAPH_CONTEXT_SECRET answers 503 and logs which secret to set, once", async () => {
  const errors = vi.spyOn(console, "error").mockImplementation(() => {});
  const bindings = deployed({ GRAPH_CONTEXT_SECRET: undefined });
  const first = await app.request("https://chat.example.com/api/health", {}, bindings);
  expect(first.status).toBe(503);
  expect(await first.json()).toMatchObject({
    error: { code: "not_configured", message: expect.stringMatching(/operator/) },
  });
  const second = await app.request("https://chat.example.com/api/conversations", {}, bindings);
  expect(second.status).toBe(503);
  expect(errors).toHaveBeenCalledTimes(1);
  const logged = String(errors.mock.calls[0]![0]);
  expect(logged).toContain("GRAPH_CONTEXT_SECRET");
  expect(logged).toContain("wrangler secret put <NAME> --env production");
  // The message names only what is missing.
  expect(logged).not.toContain("SIGNING_SECRET");
});

it("the same worker with every secret set serves requests", async () => {
  const res = await app.request("https://chat.example.com/api/health", {}, deployed({}));
  expect(res.status).toBe(200);
});

it("local development runs without them (it has built-in development defaults)", async () => {
  const res = await app.request(
    "http://127.0.0.1:8787/api/health",
    {},
    {
      ...env,
      APP_ENV: "development",
      MCP_REMOTE_TOKEN: undefined,
      GRAPH_CONTEXT_SECRET: undefined,
    },
  );
  expect(res.status).toBe(200);
});

it("wrangler.toml requires the same secrets in each deployed environment", () => {
  const required = [...wranglerToml.matchAll(/\[env\.(\w+)\.secrets\]\s+required = \[([^\]]*)\]/g)];
  expect(required.map(([, name]) => name).sort()).toEqual(["production", "staging"]);
  for (const [, , list] of required) expect(JSON.parse(`[${list}]`)).toEqual([...REQUIRED_SECRETS]);
});
