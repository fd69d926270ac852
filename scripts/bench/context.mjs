// Context assembly: converting a 2,000-message conversation (tool calls and results included)
// into the model's history and fitting it to the window, p50 and p99, and the request it makes.
// Runs src/context-bench.ts with tsx.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const r = spawnSync(join(root, "node_modules/.bin/tsx"), ["scripts/bench/src/context-bench.ts"], {
  cwd: root,
  stdio: "inherit",
  env: process.env,
});
process.exit(r.status ?? 1);
