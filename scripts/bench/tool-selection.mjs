// Bundles the tool-selection benchmark (TypeScript) with esbuild and runs it in Node.
import { build } from "esbuild";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

// Inside the project, so the bundle's external packages resolve from node_modules.
const cache = fileURLToPath(new URL("../../node_modules/.cache/bench/", import.meta.url));
mkdirSync(cache, { recursive: true });
const outfile = join(cache, "tool-selection-bench.mjs");
await build({
  entryPoints: [fileURLToPath(new URL("./src/tool-selection-bench.ts", import.meta.url))],
  outfile,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node22",
  packages: "external",
  logLevel: "warning",
});
await import(pathToFileURL(outfile).href);
