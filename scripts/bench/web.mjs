// The web client: gzipped size of the JavaScript a first visit loads, time to first render on
// localhost, and a long conversation (load time, scrolling frame times) in headless Chromium.
// The figures come from src/web-bench.ts, run with tsx so it can use the e2e stack as it is.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const bin = (name) => join(root, "node_modules/.bin", name);
const run = (cmd, args) => spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: process.env });

if (
  run(bin("vite"), ["build", "--config", "web/vite.config.ts", "--logLevel", "warn"]).status !== 0
)
  process.exit(1);
process.exit(run(bin("tsx"), ["scripts/bench/src/web-bench.ts"]).status ?? 1);
