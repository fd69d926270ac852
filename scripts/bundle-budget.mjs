// Builds each worker as `npm run deploy` would (`wrangler deploy --dry-run --outdir --metafile`,
// production environment) and fails when a script's gzip size passes its budget in
// bundle-budget.json, or when it bundles a package its entry keeps out ("excludes": PDF.js
// belongs to workers/pdf-text, never to the API worker), or evaluates at start-up a module its
// entry loads only when needed ("lazy"), or bundles a file it keeps out ("excludeFiles"); each
// of those two names its files with why.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { root, wrangler } from "./lib/wrangler.mjs";
import { bundledFiles, bundledPackages } from "./lib/bundled-packages.mjs";
import { importChain, startUpModules } from "./lib/start-up-modules.mjs";

const budgets = JSON.parse(readFileSync(join(root, "bundle-budget.json"), "utf8"));
const out = mkdtempSync(join(tmpdir(), "bundle-budget-"));
// The API worker's config names the built web client as its assets; the script does not need it.
mkdirSync(join(root, "web/dist"), { recursive: true });

const failures = [];
try {
  for (const [name, budget] of Object.entries(budgets)) {
    if (name.startsWith("$")) continue;
    const dir = join(out, name);
    const metafile = join(dir, "meta.json");
    wrangler(
      [
        "deploy",
        "--dry-run",
        "--env",
        "production",
        "--outdir",
        dir,
        "--metafile",
        metafile,
      ].concat(["-c", budget.config]),
      { capture: true },
    );
    const script = readFileSync(join(dir, "index.js"));
    const gzipKiB = gzipSync(script).length / 1024;
    const verdict = gzipKiB > budget.gzipKiB ? "OVER BUDGET" : "ok";
    console.log(
      `${name.padEnd(10)} ${(script.length / 1024).toFixed(0).padStart(6)} KiB, gzip ${gzipKiB.toFixed(0).padStart(5)} KiB (budget ${budget.gzipKiB} KiB) ${verdict}`,
    );
    if (gzipKiB > budget.gzipKiB)
      failures.push(
        `${name} is over budget: shrink it (see \`npm run bench -- startup\` for what grew), or raise its gzipKiB in bundle-budget.json if the growth is worth it.`,
      );
    const meta = JSON.parse(readFileSync(metafile, "utf8"));
    const packages = bundledPackages(meta);
    for (const excluded of budget.excludes ?? []) {
      const found = packages.get(excluded);
      if (found)
        failures.push(
          `${name} bundles ${excluded} (${(found.bytes / 1024).toFixed(0)} KiB), which bundle-budget.json keeps out of it (${budget.why ?? "see its $comment"}); imported by ${found.importers.join(", ")}.`,
        );
    }
    const files = bundledFiles(meta);
    for (const [excluded, why] of Object.entries(budget.excludeFiles ?? {})) {
      const found = files.find((file) => file.endsWith(excluded));
      if (found)
        failures.push(
          `${name} bundles ${found}, which bundle-budget.json keeps out of it (${why}).`,
        );
    }
    const atStartUp = startUpModules(meta);
    for (const [lazy, why] of Object.entries(budget.lazy ?? {})) {
      const found = [...atStartUp.keys()].find((file) => file.endsWith(lazy));
      if (found)
        failures.push(
          `${name} evaluates ${lazy} at start-up (${why}); import it with import() where it is used. Static imports: ${importChain(atStartUp, found).join(" -> ")}.`,
        );
    }
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
if (failures.length > 0) {
  for (const failure of failures) console.error(failure);
  process.exit(1);
}
