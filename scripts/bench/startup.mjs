// Worker start-up: bundle size (gzip) and `wrangler check startup` active CPU of the API worker.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { quietEnv, root } from "../lib/wrangler.mjs";

const dir = mkdtempSync(join(tmpdir(), "bench-startup-"));
const wrangler = join(root, "node_modules/.bin/wrangler");
const run = (args) => spawnSync(wrangler, args, { cwd: root, env: quietEnv(), encoding: "utf8" });

for (const [name, config] of [
  ["api", "wrangler.toml"],
  ["mcp-remote", "workers/mcp-remote/wrangler.toml"],
]) {
  const out = join(dir, name);
  const built = run(["deploy", "--dry-run", "--outdir", out, "-c", config]);
  if (built.status !== 0) {
    console.log(`${name}: bundling failed\n${built.stderr}`);
    continue;
  }
  const bytes = readFileSync(join(out, "index.js"));
  console.log(
    `${name.padEnd(10)} bundle ${(bytes.length / 1024).toFixed(0)} KiB, gzip ${(gzipSync(bytes).length / 1024).toFixed(0)} KiB`,
  );
  const check = run([
    "check",
    "startup",
    "-c",
    config,
    "--outfile",
    join(dir, `${name}.cpuprofile`),
  ]);
  const active = /Active:\s*([\d.]+) ms/.exec(check.stdout + check.stderr);
  console.log(
    `${"".padEnd(10)} start-up active CPU ${active ? `${active[1]} ms` : "not measured (wrangler check startup failed)"} (local machine; Cloudflare's differs)`,
  );
}
