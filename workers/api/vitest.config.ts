import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineProject } from "vitest/config";

const root = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineProject({
  root: root("../.."),
  plugins: [
    cloudflareTest(async ({ inject }) => ({
      wrangler: { configPath: root("../../wrangler.toml") },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: await readD1Migrations(root("../../migrations")),
          ANTHROPIC_API_KEY: "test-key",
          ANTHROPIC_BASE_URL: inject("aimockUrl"),
          MCP_BREAKER_COOLDOWN_MS: "60000",
        },
        // The MCP worker is reached through its own tests; here a stand-in answers its health route.
        serviceBindings: {
          MCP_REMOTE: () => Response.json({ ok: true, service: "mcp-remote" }),
        },
      },
    })),
  ],
  test: {
    name: "api",
    include: ["workers/api/src/**/*.test.ts", "durable-objects/conversation/**/*.test.ts"],
    globalSetup: [root("./test/global-setup.ts")],
    setupFiles: [root("./test/apply-migrations.ts")],
    testTimeout: 20_000,
  },
});
