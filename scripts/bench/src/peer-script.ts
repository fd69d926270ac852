// The script figures of `npm run bench -- peer`: each app's worker script as `wrangler deploy
// --dry-run` builds it (gzip size) and `wrangler check startup` (active CPU at start-up), both with
// our wrangler and alternating between the apps so machine load falls on both alike.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { pct } from "./e2e-session";
import { type PeerCheckout, quietEnv, wranglerBin } from "./peer-app";
import type { FigureTable } from "./peer-table";

export interface ScriptTarget {
  name: string;
  /** The wrangler config to build. */
  config: string;
  /** Where wrangler runs (the config's project). */
  cwd: string;
}

export interface ScriptFigures {
  /** gzip KiB of every module wrangler wrote (one, unless the build splits it). */
  gzipKiB: number;
  rawKiB: number;
  /** Active CPU of each `wrangler check startup`, ms. */
  startupMs: number[];
}

function run(target: ScriptTarget, args: string[]) {
  const r = spawnSync(wranglerBin, [...args, "-c", target.config], {
    cwd: target.cwd,
    env: quietEnv,
    encoding: "utf8",
  });
  if (r.status !== 0)
    throw new Error(`${target.name}: wrangler ${args[0]} failed:\n${r.stdout}${r.stderr}`);
  return r.stdout + r.stderr;
}

/** Builds each target once, then runs `check startup` `runs` times per target, alternating. */
export function measureScripts(
  targets: ScriptTarget[],
  runs: number,
  workDir: string,
): Map<string, ScriptFigures> {
  const figures = new Map<string, ScriptFigures>();
  const bundles = new Map<string, string>();
  for (const target of targets) {
    const slug = target.name.replace(/\W+/g, "-");
    const out = join(workDir, slug);
    mkdirSync(out, { recursive: true });
    run(target, ["deploy", "--dry-run", "--outdir", out]);
    const modules = readdirSync(out).filter((f) => /\.(m?js|wasm)$/.test(f));
    let raw = 0;
    let gzip = 0;
    for (const file of modules) {
      const bytes = readFileSync(join(out, file));
      raw += bytes.length;
      gzip += gzipSync(bytes).length;
    }
    // check startup takes the multipart upload `deploy --outfile` writes.
    const bundle = join(workDir, `${slug}.bundle`);
    run(target, ["deploy", "--dry-run", "--outfile", bundle]);
    bundles.set(target.name, bundle);
    figures.set(target.name, { gzipKiB: gzip / 1024, rawKiB: raw / 1024, startupMs: [] });
  }
  for (let i = 0; i < runs; i++) {
    const order = i % 2 === 0 ? targets : [...targets].reverse();
    for (const target of order) {
      const profile = join(workDir, `${target.name.replace(/\W+/g, "-")}.cpuprofile`);
      const out = run(target, [
        "check",
        "startup",
        "--worker",
        bundles.get(target.name) ?? "",
        "--outfile",
        profile,
      ]);
      const active = /Active:\s*([\d.]+) ms/.exec(out);
      if (active) figures.get(target.name)?.startupMs.push(Number(active[1]));
    }
  }
  return figures;
}

/** Our API worker's config with an empty assets folder (web/dist is not needed nor touched). */
function ourApiConfig(root: string, workDir: string): string {
  const assets = join(workDir, "assets");
  mkdirSync(assets, { recursive: true });
  writeFileSync(join(assets, "index.html"), "<!doctype html>");
  const config = join(root, `wrangler.bench-peer-${process.pid}.toml`);
  writeFileSync(
    config,
    readFileSync(join(root, "wrangler.toml"), "utf8").replace(
      'directory = "web/dist"',
      `directory = ${JSON.stringify(assets)}`,
    ),
  );
  return config;
}

/** Adds the start-up CPU and script size rows: our API worker and the peer as it would deploy. */
export function addScriptFigures(
  table: FigureTable,
  peer: PeerCheckout,
  runs: number,
  workDir: string,
): void {
  const root = new URL("../../../", import.meta.url).pathname;
  const ourConfig = ourApiConfig(root, workDir);
  try {
    const scripts = measureScripts(
      [
        { name: "ours", config: ourConfig, cwd: root },
        { name: "peer", config: peer.ownConfig, cwd: peer.dir },
      ],
      runs,
      workDir,
    );
    const ours = scripts.get("ours");
    const theirs = scripts.get("peer");
    if (!ours || !theirs) return;
    const median = (xs: number[]) => (xs.length ? pct(xs, 50) : Number.NaN);
    const startup = "start-up CPU, `wrangler check startup`, median";
    table.set(startup, "ms", median(ours.startupMs), median(theirs.startupMs));
    table.note(
      startup,
      `ours ${ours.startupMs.join(", ")}; peer ${theirs.startupMs.join(", ")} (alternating)`,
    );
    table.set("script size, gzip", "KiB", ours.gzipKiB, theirs.gzipKiB);
    table.note(
      "script size, gzip",
      `raw ${ours.rawKiB.toFixed(0)} vs ${theirs.rawKiB.toFixed(0)} KiB; ours is the API worker (our MCP worker is a second script, not counted)`,
    );
  } finally {
    rmSync(ourConfig, { force: true });
  }
}
