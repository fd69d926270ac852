import { fileURLToPath } from "node:url";
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineProject } from "vitest/config";
import { maxWorkers } from "../../vitest.workers.ts";

const root = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// The adapters run in workerd, the official SDKs talking to aimock over real HTTP.
export default defineProject({
  root: root("../.."),
  plugins: [
    cloudflareTest({
      miniflare: { compatibilityDate: "2026-08-01", compatibilityFlags: ["nodejs_compat"] },
    }),
  ],
  test: {
    name: "providers",
    maxWorkers,
    include: ["durable-objects/providers/**/*.test.ts"],
    globalSetup: [root("./test/global-setup.ts")],
    testTimeout: 20_000,
  },
});
