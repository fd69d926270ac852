// The event log under `wrangler dev`: what streaming an answer costs the server per model delta,
// and how long a client takes to catch up on a long conversation (WebSocket and SSE). Runs
// src/event-log-bench.ts with tsx so it can use the e2e stack as it is.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const r = spawnSync(join(root, "node_modules/.bin/tsx"), ["scripts/bench/src/event-log-bench.ts"], {
  cwd: root,
  stdio: "inherit",
  env: process.env,
});
process.exit(r.status ?? 1);
