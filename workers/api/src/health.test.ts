import { exports } from "cloudflare:workers";
import { env } from "cloudflare:test";
import { expect, it } from "vitest";

it("answers health and has the schema applied", async () => {
  const res = await exports.default.fetch("http://x/api/health");
  expect(res.status).toBe(200);
  const tables = await env.DB.prepare("select name from sqlite_master where type='table'").all();
  expect(tables.results.map((r) => r.name)).toContain("conversations");
});
