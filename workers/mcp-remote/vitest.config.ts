import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineProject } from "vitest/config";

const root = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineProject({
  root: root("../.."),
  plugins: [
    cloudflareTest(async ({ inject }) => ({
      wrangler: { configPath: root("./wrangler.toml") },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: await readD1Migrations(root("../../migrations")),
          MCP_REMOTE_TOKEN: "test-mcp-token",
          GRAPH_CONTEXT_SECRET: "test-graph-secret",
          APP_ENV: "production",
          EUTILS_BASE_URL: `${inject("fixturesUrl")}/eutils`,
          PUBTATOR_BASE_URL: `${inject("fixturesUrl")}/pubtator`,
          CLINICALTRIALS_BASE_URL: `${inject("fixturesUrl")}/ctgov`,
          // Short, so the slow and oversized fixtures trip them quickly.
          OUTSIDE_TIMEOUT_MS: "1000",
          OUTSIDE_MAX_BYTES: "262144",
        },
      },
    })),
  ],
  test: {
    name: "mcp-remote",
    // One file at a time: the files share one fixture server, and tests read its request log in
    // order (the requests a tool call made are the ones after the count taken before it).
    fileParallelism: false,
    include: ["workers/mcp-remote/src/**/*.test.ts", "shared/**/*.test.ts"],
    globalSetup: [root("./test/global-setup.ts")],
    setupFiles: [root("./test/apply-migrations.ts")],
    testTimeout: 20_000,
  },
});
