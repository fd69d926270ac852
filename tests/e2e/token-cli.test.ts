// The operator's tools against a real local D1 (wrangler, --persist-to a temporary directory):
// tokens with an expiry, listing, revoking, signing a user out everywhere; .dev.vars kept private.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs module of our scripts, without types
import { createPrivateCopy, ensureVars } from "../../scripts/lib/dev-vars.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const env = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  CI: "true",
};
let state: string;

function run(script: string, args: string[]): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [join(root, "scripts", script), ...args], {
    cwd: root,
    env,
    encoding: "utf8",
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

const tokens = (...args: string[]) => run("tokens.mjs", [...args, "--persist-to", state]);

function d1(command: string): Array<Record<string, unknown>> {
  const r = spawnSync(
    join(root, "node_modules/.bin/wrangler"),
    [
      "d1",
      "execute",
      "DB",
      "--local",
      "--persist-to",
      state,
      "--yes",
      "--json",
      "--command",
      command,
    ],
    { cwd: root, env, encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(r.stdout + r.stderr);
  return (JSON.parse(r.stdout) as Array<{ results: Array<Record<string, unknown>> }>)[0]!.results;
}

beforeAll(() => {
  state = mkdtempSync(join(tmpdir(), "thinking-chat-cli-"));
  const r = spawnSync(
    join(root, "node_modules/.bin/wrangler"),
    ["d1", "migrations", "apply", "DB", "--local", "--persist-to", state],
    { cwd: root, env, encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(r.stdout + r.stderr);
});
afterAll(() => rmSync(state, { recursive: true, force: true }));

it("creates a token that expires, lists it, revokes it with its sessions, and signs a user out everywhere", () => {
  const created = run("create-token.mjs", [
    "--name",
    "ops",
    "--expires",
    "90d",
    "--persist-to",
    state,
  ]);
  expect(created.status).toBe(0);
  expect(created.out).toMatch(/stops working on 20\d\d-/);
  const [token] = d1("SELECT t.id, t.expires_at, t.user_id FROM api_tokens t");
  const ninetyDays = 90 * 86_400_000;
  expect(Math.abs(Number(token!.expires_at) - (Date.now() + ninetyDays))).toBeLessThan(120_000);
  expect(run("create-token.mjs", ["--expires", "soon", "--persist-to", state]).status).toBe(2);

  // Two browser sessions opened with it.
  const future = Date.now() + 3_600_000;
  d1(
    `INSERT INTO sessions (id, user_id, token_id, expires_at) VALUES ('s1', '${String(token!.user_id)}', '${String(token!.id)}', ${future}), ('s2', '${String(token!.user_id)}', '${String(token!.id)}', ${future})`,
  );
  const listed = tokens("list", "--name", "ops");
  expect(listed.status).toBe(0);
  expect(listed.out).toContain(String(token!.id));
  expect(listed.out).toContain("sessions 2");

  const everywhere = tokens("sign-out-everywhere", "--name", "ops");
  expect(everywhere.out).toContain("Ended 2 browser session(s)");
  expect(d1("SELECT id FROM sessions")).toEqual([]);
  expect(d1("SELECT id FROM api_tokens")).toHaveLength(1);

  d1(
    `INSERT INTO sessions (id, user_id, token_id, expires_at) VALUES ('s3', '${String(token!.user_id)}', '${String(token!.id)}', ${future})`,
  );
  expect(tokens("revoke", String(token!.id)).status).toBe(0);
  expect(d1("SELECT id FROM api_tokens")).toEqual([]);
  expect(d1("SELECT id FROM sessions")).toEqual([]);
  expect(tokens("revoke", String(token!.id)).status).toBe(2);
});

it("keeps .dev.vars readable by its owner only, also one created before with mode 0644", () => {
  const dir = mkdtempSync(join(tmpdir(), "thinking-chat-vars-"));
  const example = join(dir, "example");
  writeFileSync(example, "ANTHROPIC_API_KEY=\n");
  const fresh = join(dir, "fresh");
  createPrivateCopy(example, fresh);
  expect(statSync(fresh).mode & 0o777).toBe(0o600);
  const old = join(dir, "old");
  writeFileSync(old, "OPENAI_API_KEY=sk-x\n", { mode: 0o644 });
  createPrivateCopy(example, old);
  ensureVars(old, { MCP_REMOTE_TOKEN: "t" });
  expect(statSync(old).mode & 0o777).toBe(0o600);
  rmSync(dir, { recursive: true, force: true });
});
