// npm start: build the web client, apply D1 migrations locally, make sure a local user exists,
// then run the three workers under `wrangler dev` with local D1, R2 and Durable Objects (.wrangler/).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { prepareDevVars } from "./lib/dev-vars.mjs";
import {
  createUserWithTokenSql,
  newToken,
  quietEnv,
  root,
  wrangler,
  wranglerSpawn,
} from "./lib/wrangler.mjs";

const port = Number(process.env.PORT ?? 8787);
const step = (text) => console.log(`\n▸ ${text}`);

step("Building the web client");
const build = spawnSync(
  join(root, "node_modules/.bin/vite"),
  ["build", "--config", "web/vite.config.ts", "--logLevel", "warn"],
  {
    cwd: root,
    env: quietEnv(),
    stdio: "inherit",
  },
);
if (build.status !== 0) process.exit(build.status ?? 1);

step("Configuration (.dev.vars)");
// Secrets the two workers share, and the key that seals MCP sign-in tokens in the local D1
// (`<key id>:<32 bytes>`): generated once for this machine.
const apiVars = prepareDevVars(root, {
  MCP_REMOTE_TOKEN: randomBytes(24).toString("base64url"),
  GRAPH_CONTEXT_SECRET: randomBytes(32).toString("base64url"),
  OAUTH_ENCRYPTION_KEY: `local:${randomBytes(32).toString("base64url")}`,
});
const providers = [
  "ANTHROPIC_API_KEY",
  "OPENAI_API_KEY",
  "GEMINI_API_KEY",
  "OLLAMA_BASE_URL",
].filter((k) => apiVars[k]);
if (providers.length === 0) {
  console.log(
    "  No model provider is configured yet. The app starts anyway; to chat, put one of\n" +
      "  ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY or OLLAMA_BASE_URL in .dev.vars and restart.",
  );
} else {
  console.log(`  Providers configured: ${providers.join(", ")}`);
}

step("Applying D1 migrations locally");
wrangler(["d1", "migrations", "apply", "DB", "--local"], { capture: true });

step("Local user");
const tokenFile = join(root, ".wrangler/local-token");
let token = existsSync(tokenFile) ? readFileSync(tokenFile, "utf8").trim() : "";
if (!token) {
  token = newToken();
  wrangler(
    [
      "d1",
      "execute",
      "DB",
      "--local",
      "--yes",
      "--command",
      createUserWithTokenSql("local", token, "npm start"),
    ],
    { capture: true },
  );
  mkdirSync(join(root, ".wrangler"), { recursive: true });
  writeFileSync(tokenFile, token + "\n", { mode: 0o600 });
}
const url = `http://127.0.0.1:${port}`;
console.log(
  `  Open ${url}/#token=${token}\n  (or sign in with the token ${token}; it is kept in .wrangler/local-token)`,
);

step(`Starting the workers on ${url}`);
const dev = wranglerSpawn([
  "dev",
  "-c",
  "wrangler.toml",
  "-c",
  "workers/mcp-remote/wrangler.toml",
  "-c",
  "workers/pdf-text/wrangler.toml",
  "--ip",
  "127.0.0.1",
  "--port",
  String(port),
]);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => dev.kill(signal));
dev.on("exit", (code) => process.exit(code ?? 0));
