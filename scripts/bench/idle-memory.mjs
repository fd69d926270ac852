// What conversations leave behind in the runtime once idle: the resident memory of the dev
// server's workerd after many one-turn conversations, measured again after they went idle.
// Runs src/idle-memory-bench.ts with tsx so it can use the e2e stack as it is.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const r = spawnSync(
  join(root, "node_modules/.bin/tsx"),
  ["scripts/bench/src/idle-memory-bench.ts"],
  {
    cwd: root,
    stdio: "inherit",
    env: process.env,
  },
);
process.exit(r.status ?? 1);
