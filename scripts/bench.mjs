// Runs every benchmark in scripts/bench/ in turn; each prints its own figures.
import { readdirSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL("./bench/", import.meta.url));
const only = process.argv[2];
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".mjs") && (!only || f.includes(only)))
  .sort();
let failed = 0;
for (const file of files) {
  console.log(`\n== ${file} ==`);
  const r = spawnSync(process.execPath, [dir + file], { stdio: "inherit", env: process.env });
  if (r.status !== 0) failed++;
}
if (files.length === 0) console.log("no benchmarks found in scripts/bench/");
process.exit(failed ? 1 : 0);
