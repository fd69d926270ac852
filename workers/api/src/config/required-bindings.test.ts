// A worker whose wrangler.toml lacks a binding refuses requests and says which one to declare.
import { env } from "cloudflare:test";
import { afterEach, expect, it, vi } from "vitest";
import app from "../app";
import { REQUIRED_BINDINGS } from "./required-bindings";
import wranglerToml from "../../../../wrangler.toml?raw";

afterEach(() => vi.restoreAllMocks());

it("without its D1 binding a local worker answers 503 naming DB and where to declare it", async () => {
  const errors = vi.spyOn(console, "error").mockImplementation(() => {});
  const bindings = { ...env, APP_ENV: "development", DB: undefined };
  const res = await app.request("http://127.0.0.1:8787/api/conversations", {}, bindings);
  expect(res.status).toBe(503);
  const body = await res.json<{ error: { code: string; message: string } }>();
  expect(body.error.code).toBe("not_configured");
  expect(body.error.message).toContain("no binding DB ([[d1_databases]])");
  expect(body.error.message).toContain("wrangler.toml");
  expect(String(errors.mock.calls[0]?.[0])).toBe(body.error.message);
});

it("a deployed worker tells only its logs, naming the environment's table, once", async () => {
  const errors = vi.spyOn(console, "error").mockImplementation(() => {});
  const bindings = { ...env, APP_ENV: "production", ARTIFACTS: undefined, PDF_TEXT: undefined };
  const first = await app.request("https://chat.example.com/api/health", {}, bindings);
  expect(first.status).toBe(503);
  const body = await first.json<{ error: { message: string } }>();
  expect(body.error.message).not.toContain("ARTIFACTS");
  await app.request("https://chat.example.com/api/health", {}, bindings);
  expect(errors).toHaveBeenCalledTimes(1);
  const logged = String(errors.mock.calls[0]![0]);
  expect(logged).toContain("ARTIFACTS ([[env.production.r2_buckets]])");
  expect(logged).toContain("PDF_TEXT ([[env.production.services]])");
  expect(logged).toContain("inherits no bindings");
});

it("every binding it requires is declared in each environment of wrangler.toml", () => {
  for (const section of ["", "env.staging.", "env.production."]) {
    for (const [name, table] of Object.entries(REQUIRED_BINDINGS)) {
      const header = table.replace("[[", `[[${section}`);
      const declared = wranglerToml
        .split(header)
        .slice(1)
        .some((after) => new RegExp(`^\\s*(binding|name) = "${name}"`).test(after));
      expect(declared, `${name} in ${header}`).toBe(true);
    }
  }
});

it("a misspelt APP_ENV is named, rather than asking for deployed secrets", async () => {
  const errors = vi.spyOn(console, "error").mockImplementation(() => {});
  const bindings = { ...env, APP_ENV: "dev", SIGNING_SECRET: undefined };
  const res = await app.request("http://127.0.0.1:8787/api/health", {}, bindings);
  expect(res.status).toBe(503);
  const logged = errors.mock.calls.map(([line]) => String(line));
  expect(logged).toEqual([expect.stringContaining('APP_ENV is "dev"; set it to "development"')]);
});
