// Running wrangler from our scripts: nothing leaves this machine (no metrics, reports or cf fetch).
import { spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../../", import.meta.url));
const bin = fileURLToPath(new URL("../../node_modules/.bin/wrangler", import.meta.url));

export const quietEnv = (extra = {}) => ({
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  ...extra,
});

/** Runs wrangler to completion; throws with its output when it fails. */
export function wrangler(args, { capture = false, cwd = root } = {}) {
  const r = spawnSync(bin, args, {
    cwd,
    env: quietEnv(),
    encoding: "utf8",
    stdio: capture ? "pipe" : ["ignore", "inherit", "inherit"],
  });
  if (r.status !== 0)
    throw new Error(`wrangler ${args.join(" ")} failed:\n${r.stdout ?? ""}${r.stderr ?? ""}`);
  return r.stdout ?? "";
}

export function wranglerSpawn(args, options = {}) {
  return spawn(bin, args, {
    cwd: root,
    env: quietEnv(options.env),
    stdio: options.stdio ?? "inherit",
  });
}

export const newToken = () => `tc_${randomBytes(24).toString("base64url")}`;
export const sha256Hex = (text) => createHash("sha256").update(text).digest("hex");
const sqlString = (s) => `'${String(s).replace(/'/g, "''")}'`;

/** SQL that creates a user (or reuses one by name) and gives it a new token. */
export function createUserWithTokenSql(name, token, label = "", expiresAt = null) {
  const userId = randomUUID();
  const expires = expiresAt === null ? "NULL" : String(Math.floor(expiresAt));
  return [
    `INSERT INTO users (id, name) SELECT ${sqlString(userId)}, ${sqlString(name)} WHERE NOT EXISTS (SELECT 1 FROM users WHERE name = ${sqlString(name)});`,
    `INSERT INTO api_tokens (id, user_id, token_hash, label, expires_at) SELECT ${sqlString(randomUUID())}, id, ${sqlString(sha256Hex(token))}, ${sqlString(label)}, ${expires} FROM users WHERE name = ${sqlString(name)} LIMIT 1;`,
  ].join(" ");
}

/** Quotes a value for the SQL our scripts hand to `wrangler d1 execute`. */
export { sqlString };
