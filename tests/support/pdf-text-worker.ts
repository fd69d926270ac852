// Builds workers/pdf-text into one module for a test's workerd to run beside the API worker (a
// Miniflare auxiliary worker needs JavaScript, not TypeScript). Bundled as Wrangler bundles it:
// the workerd/worker/browser export conditions, node: built-ins left to nodejs_compat.
import { createHash } from "node:crypto";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { PdfTextWorker } from "../../workers/api/vitest.config";

const root = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/** Equal to workers/pdf-text/wrangler.toml: the name the API worker's PDF_TEXT binding names. */
const NAME = "thinking-chat-pdf-text";
const COMPATIBILITY_FLAGS = ["nodejs_compat"];

export async function buildPdfTextWorker(): Promise<PdfTextWorker & { kind: "built" }> {
  // One place per checkout, outside node_modules (shared between worktrees); written under a
  // temporary name and renamed, so test runs started together never read half a file.
  const checkout = createHash("sha256").update(root("../..")).digest("hex").slice(0, 12);
  const outdir = join(tmpdir(), `thinking-chat-pdf-text-worker-${checkout}`);
  mkdirSync(outdir, { recursive: true });
  const scriptPath = join(outdir, "index.mjs");
  const built = await build({
    entryPoints: [root("../../workers/pdf-text/src/index.ts")],
    outfile: scriptPath,
    write: false,
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2024",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["browser", "module", "main"],
    external: ["node:*", "cloudflare:*"],
    logLevel: "warning",
  });
  const partial = `${scriptPath}.${process.pid}.tmp`;
  writeFileSync(partial, built.outputFiles[0]!.contents);
  renameSync(partial, scriptPath);
  return { kind: "built", name: NAME, scriptPath, compatibilityFlags: COMPATIBILITY_FLAGS };
}
