// Worker start-up: bundle size (raw and gzip) and `wrangler check startup` active CPU of each
// worker, the median of BENCH_STARTUP_RUNS runs (20 by default; one sample is noise). The API
// worker is bundled against an empty assets folder, so web/dist (which a running `npm start`
// serves) is neither needed nor touched. BENCH_STARTUP_WITHOUT=@google/genai,... adds a row for the API
// worker with those packages swapped for an empty module: what they cost in size and start-up.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { quietEnv, root } from "../lib/wrangler.mjs";

const RUNS = Number(process.env.BENCH_STARTUP_RUNS || 20);
const dir = mkdtempSync(join(tmpdir(), "bench-startup-"));
const wrangler = join(root, "node_modules/.bin/wrangler");
const run = (args) => spawnSync(wrangler, args, { cwd: root, env: quietEnv(), encoding: "utf8" });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// A copy of the API worker's config beside the original (its relative paths still resolve).
const assets = join(dir, "assets");
const apiConfig = join(root, `wrangler.bench-startup-${process.pid}.toml`);
const apiToml = readFileSync(join(root, "wrangler.toml"), "utf8").replace(
  'directory = "web/dist"',
  `directory = ${JSON.stringify(assets)}`,
);
spawnSync("mkdir", ["-p", assets]);
writeFileSync(join(assets, "index.html"), "<!doctype html>");
writeFileSync(apiConfig, apiToml);
const workers = [
  ["api", apiConfig],
  ["mcp-remote", "workers/mcp-remote/wrangler.toml"],
  ["pdf-text", "workers/pdf-text/wrangler.toml"],
];
const without = (process.env.BENCH_STARTUP_WITHOUT ?? "").split(",").filter(Boolean);
const strippedConfig = join(root, `wrangler.bench-startup-${process.pid}-without.toml`);
if (without.length > 0) {
  const empty = join(dir, "empty-module.mjs");
  writeFileSync(empty, "export {};\n");
  const alias = without.map((pkg) => `${JSON.stringify(pkg)} = ${JSON.stringify(empty)}`);
  // Into the config's own [alias] table when it has one, else a top-level key right after `main`.
  writeFileSync(
    strippedConfig,
    /^\[alias\]$/m.test(apiToml)
      ? apiToml.replace(/^\[alias\]$/m, `[alias]\n${alias.join("\n")}`)
      : apiToml.replace(/^main = .*$/m, (main) => `${main}\nalias = { ${alias.join(", ")} }`),
  );
  workers.splice(1, 0, [`api without ${without.join(", ")}`, strippedConfig]);
}

try {
  for (const [name, config] of workers) {
    const out = join(dir, name.replace(/\W+/g, "-"));
    const built = run(["deploy", "--dry-run", "--outdir", out, "-c", config]);
    if (built.status !== 0) {
      console.log(`${name}: bundling failed\n${built.stderr}`);
      continue;
    }
    const bytes = readFileSync(join(out, "index.js"));
    console.log(
      `${name.padEnd(10)} bundle ${(bytes.length / 1024).toFixed(0)} KiB raw, ${(gzipSync(bytes).length / 1024).toFixed(0)} KiB gzip`,
    );
    // check startup bundles with the default config unless handed a bundle (multipart, as
    // `wrangler deploy --outfile` writes it).
    const bundle = join(dir, `${name.replace(/\W+/g, "-")}.bundle`);
    const packed = run(["deploy", "--dry-run", "--outfile", bundle, "-c", config]);
    const samples = [];
    for (let i = 0; i < RUNS && packed.status === 0; i++) {
      const check = run([
        "check",
        "startup",
        "-c",
        config,
        "--worker",
        bundle,
        "--outfile",
        join(dir, `${name.replace(/\W+/g, "-")}.cpuprofile`),
      ]);
      const active = /Active:\s*([\d.]+) ms/.exec(check.stdout + check.stderr);
      if (active) samples.push(Number(active[1]));
    }
    console.log(
      `${"".padEnd(10)} start-up active CPU ${samples.length ? `median ${median(samples)} ms, min ${Math.min(...samples)} ms, max ${Math.max(...samples)} ms (n=${samples.length})` : "not measured (wrangler check startup failed)"} (local machine; Cloudflare's differs)`,
    );
  }
} finally {
  rmSync(apiConfig, { force: true });
  rmSync(strippedConfig, { force: true });
  rmSync(dir, { recursive: true, force: true });
}
