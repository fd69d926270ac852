// Bundles one TypeScript benchmark from scripts/bench/src/ with esbuild and runs it in Node.
import { build } from "esbuild";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** Runs scripts/bench/src/<name>.ts, e.g. "loop-bench". */
export async function runBundledBench(name) {
  // Inside the project, so the bundle's external packages resolve from node_modules.
  const cache = fileURLToPath(new URL("../../node_modules/.cache/bench/", import.meta.url));
  mkdirSync(cache, { recursive: true });
  const outfile = join(cache, `${name}.mjs`);
  await build({
    entryPoints: [fileURLToPath(new URL(`../bench/src/${name}.ts`, import.meta.url))],
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node22",
    packages: "external",
    logLevel: "warning",
  });
  await import(pathToFileURL(outfile).href);
}
