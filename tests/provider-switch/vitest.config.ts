import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineProject } from "vitest/config";
import { maxWorkers } from "../../vitest.workers.ts";

const root = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Switching provider mid-conversation, for each of the 4 × 3 pairs: the API worker and the
// Conversation DO in workerd, as in the api project, but with all four providers pointed at aimock
// (the api project keeps OpenAI unkeyed and Ollama down to test routing around them).
export default defineProject({
  root: root("../.."),
  plugins: [
    cloudflareTest(async ({ inject }) => ({
      wrangler: { configPath: root("../../wrangler.toml") },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: await readD1Migrations(root("../../migrations")),
          ANTHROPIC_API_KEY: "test-key",
          ANTHROPIC_BASE_URL: inject("switchMockUrl"),
          OPENAI_API_KEY: "test-key",
          OPENAI_BASE_URL: `${inject("switchMockUrl")}/v1`,
          // Asked as OpenAI itself is; chat completions are tested against the same mock elsewhere.
          OPENAI_API: "responses",
          GEMINI_API_KEY: "test-key",
          GEMINI_BASE_URL: inject("switchMockUrl"),
          OLLAMA_BASE_URL: inject("switchMockUrl"),
          OAUTH_ENCRYPTION_KEY: "test:dGVzdC1rZXktZm9yLW1jcC1zaWduLWluLTMyYnl0ZXM",
          SIGNING_SECRET: "test-signing-secret",
          MCP_REMOTE_TOKEN: "test-mcp-token",
          GRAPH_CONTEXT_SECRET: "test-graph-secret",
        },
        serviceBindings: {
          MCP_REMOTE: () =>
            Response.json(
              { error: { code: "not_found", message: "no MCP here" } },
              { status: 404 },
            ),
          // Provider switches send no PDFs: the PDF text worker answers as one that is not there.
          PDF_TEXT: () =>
            Response.json(
              { error: { code: "not_found", message: "no PDF text worker here" } },
              { status: 404 },
            ),
        },
      },
    })),
  ],
  test: {
    name: "provider-switch",
    maxWorkers,
    include: ["tests/provider-switch/**/*.test.ts"],
    globalSetup: [root("./global-setup.ts")],
    setupFiles: [root("../support/apply-migrations.ts")],
    testTimeout: 60_000,
  },
});
