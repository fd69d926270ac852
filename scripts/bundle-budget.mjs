// Builds each worker as `npm run deploy` would (`wrangler deploy --dry-run --outdir`, production
// environment) and fails when a script's gzip size passes its budget in bundle-budget.json.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { root, wrangler } from "./lib/wrangler.mjs";

const budgets = JSON.parse(readFileSync(join(root, "bundle-budget.json"), "utf8"));
const out = mkdtempSync(join(tmpdir(), "bundle-budget-"));
// The API worker's config names the built web client as its assets; the script does not need it.
mkdirSync(join(root, "web/dist"), { recursive: true });

const over = [];
try {
  for (const [name, budget] of Object.entries(budgets)) {
    if (name.startsWith("$")) continue;
    const dir = join(out, name);
    wrangler(["deploy", "--dry-run", "--env", "production", "--outdir", dir, "-c", budget.config], {
      capture: true,
    });
    const script = readFileSync(join(dir, "index.js"));
    const gzipKiB = gzipSync(script).length / 1024;
    const verdict = gzipKiB > budget.gzipKiB ? "OVER BUDGET" : "ok";
    console.log(
      `${name.padEnd(10)} ${(script.length / 1024).toFixed(0).padStart(6)} KiB, gzip ${gzipKiB.toFixed(0).padStart(5)} KiB (budget ${budget.gzipKiB} KiB) ${verdict}`,
    );
    if (gzipKiB > budget.gzipKiB) over.push(name);
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
if (over.length > 0) {
  console.error(
    `Bundle over budget: ${over.join(", ")}. Shrink it (see \`npm run bench -- startup\` for what grew), or raise its gzipKiB in bundle-budget.json if the growth is worth it.`,
  );
  process.exit(1);
}
