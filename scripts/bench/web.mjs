// The web client: gzipped size of the JavaScript a first visit loads, time to first render on
// localhost, and a long conversation (load time, scrolling frame times) in headless Chromium.
// The figures come from src/web-bench.ts, run with tsx so it can use the e2e stack as it is.
// The client is built into a directory of its own: web/dist may belong to a running `npm start`.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const bin = (name) => join(root, "node_modules/.bin", name);
const dist = join(tmpdir(), `thinking-chat-web-bench-${process.pid}`);
const run = (cmd, args) =>
  spawnSync(cmd, args, {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, BENCH_WEB_DIST: dist },
  });

const build = ["build", "--config", "web/vite.config.ts", "--logLevel", "warn"];
if (run(bin("vite"), [...build, "--outDir", dist, "--emptyOutDir"]).status !== 0) process.exit(1);
const status = run(bin("tsx"), ["scripts/bench/src/web-bench.ts"]).status ?? 1;
rmSync(dist, { recursive: true, force: true });
process.exit(status);
