// End to end: the real app under `wrangler dev` with aimock at zero latency, timed from a
// WebSocket client (turn latency, first turns, crowds of new conversations, runtime memory).
// Runs src/e2e-bench.ts with tsx so it can use the e2e stack as it is. Quick run:
// BENCH_E2E_RUNS=5 BENCH_E2E_CROWDS=20 BENCH_E2E_MEMORY_CONVERSATIONS=0 npm run bench -- e2e
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const r = spawnSync(join(root, "node_modules/.bin/tsx"), ["scripts/bench/src/e2e-bench.ts"], {
  cwd: root,
  stdio: "inherit",
  env: process.env,
});
process.exit(r.status ?? 1);
