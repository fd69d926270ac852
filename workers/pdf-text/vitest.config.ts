import { fileURLToPath } from "node:url";
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineProject } from "vitest/config";
import { maxWorkers } from "../../vitest.workers.ts";

const root = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// The PDF text worker alone in workerd, PDF.js and all (its own runner: see
// tests/pdf-attachments/vitest.config.ts for why PDF.js is kept out of shared runners).
export default defineProject({
  root: root("../.."),
  plugins: [cloudflareTest({ wrangler: { configPath: root("./wrangler.toml") } })],
  test: {
    name: "pdf-text",
    maxWorkers,
    include: ["workers/pdf-text/src/**/*.test.ts"],
    testTimeout: 30_000,
  },
});
