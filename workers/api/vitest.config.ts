import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { configDefaults, defineProject } from "vitest/config";
import { maxWorkers } from "../../vitest.workers.ts";

const root = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/** Test files that extract a PDF's text; tests/pdf-attachments runs them with workers/pdf-text. */
export const PDF_TEST_FILES = ["durable-objects/conversation/attachment-history.test.ts"];

/** How a test project runs workers/pdf-text behind the API worker's PDF_TEXT binding. */
export type PdfTextWorker =
  | { kind: "absent" }
  | { kind: "built"; name: string; scriptPath: string; compatibilityFlags: string[] };

/** The api project's workerd: the API worker with test bindings, and PDF_TEXT as asked. */
export function apiWorkerPlugin(pdfText: PdfTextWorker = { kind: "absent" }) {
  return cloudflareTest(async ({ inject }) => ({
    wrangler: { configPath: root("../../wrangler.toml") },
    miniflare: {
      bindings: {
        TEST_MIGRATIONS: await readD1Migrations(root("../../migrations")),
        ANTHROPIC_API_KEY: "test-key",
        // The operator's info lines, as deployed (wrangler.toml's local default writes warnings
        // and errors only): tests read them.
        LOG_LEVEL: "info",
        ANTHROPIC_BASE_URL: inject("aimockUrl"),
        MCP_BREAKER_COOLDOWN_MS: "60000",
        // MCP sign-in tokens are sealed with a configured key, as in production.
        OAUTH_ENCRYPTION_KEY: "test:dGVzdC1rZXktZm9yLW1jcC1zaWduLWluLTMyYnl0ZXM",
        // Tests reach the worker as http://app.test: not a local address, so no built-in key.
        SIGNING_SECRET: "test-signing-secret",
        // Only the usage fixtures report tokens (tests/support/usage-fixtures.ts): one of
        // their turns passes this, so each usage test uses its own user.
        DAILY_TOKEN_ALLOWANCE: "2000",
        // Required of a deployed worker (config/required-secrets.ts): tests that run as one set
        // APP_ENV=production on top of these.
        MCP_REMOTE_TOKEN: "test-mcp-token",
        GRAPH_CONTEXT_SECRET: "test-graph-secret",
        // aimock's OpenRouter base: OpenAI's Chat Completions wire format, with the usage
        // breakdowns (cached and reasoning tokens) a fixture sets. Gemini has no key here.
        OPENAI_API_KEY: "test-key",
        OPENAI_BASE_URL: `${inject("aimockUrl")}/api/v1`,
        // Ollama is down in tests (nothing listens there): routing falls back from it.
        OLLAMA_BASE_URL: inject("closedPortUrl"),
        // Small attachment limits, so tests reach them with small files.
        ATTACHMENT_MAX_BYTES: String(1024 * 1024),
        ATTACHMENT_QUOTA_BYTES: String(3 * 1024 * 1024),
      },
      // Our MCP worker has its own test project (workers/mcp-remote); here the binding answers
      // like a worker without an MCP route, so turns run with the other servers only. The two
      // workers run together in tests/e2e under `wrangler dev`.
      serviceBindings: {
        MCP_REMOTE: () =>
          Response.json({ error: { code: "not_found", message: "no MCP here" } }, { status: 404 }),
        // The PDF text worker runs beside this one in tests/pdf-attachments (and tests/e2e);
        // here it answers like a worker that is not there.
        PDF_TEXT:
          pdfText.kind === "built"
            ? pdfText.name
            : () =>
                Response.json(
                  { error: { code: "not_found", message: "no PDF text worker here" } },
                  { status: 404 },
                ),
      },
      workers:
        pdfText.kind === "built"
          ? [
              {
                name: pdfText.name,
                modules: true,
                scriptPath: pdfText.scriptPath,
                // Module names are paths under this root (the script lives outside the checkout).
                modulesRoot: dirname(pdfText.scriptPath),
                compatibilityDate: "2026-08-01",
                compatibilityFlags: pdfText.compatibilityFlags,
              },
            ]
          : [],
    },
  }));
}

/**
 * The api project's files that get a workerd of their own (project `api-isolated`, in
 * tests/api-isolated). The others share one per Vitest worker, file after file (see below). A
 * file belongs here if it
 * - ends or evicts Durable Objects (abortAllDurableObjects, evictDurableObject, reset): an
 *   object ended while its import() waits on the module runner leaves that module's import
 *   hanging for every later file of the runtime (tests/support/shared-runtime.ts);
 * - or checks what the worker says once per isolate (module-level state in app code: a
 *   malformed setting or a missing secret logged once): in a shared runtime another file may
 *   have said it already.
 * A new file that does neither belongs in the shared project; one that passes alone but fails
 * beside others there (run `--project api` twice) belongs here, with its reason.
 */
export const ISOLATED_API_FILES = [
  // Restart objects mid-turn (abortAllDurableObjects).
  "durable-objects/conversation/approvals.test.ts",
  "durable-objects/conversation/cut-off-usage.test.ts",
  "durable-objects/conversation/elicitations.test.ts",
  "durable-objects/conversation/eviction.test.ts",
  "durable-objects/conversation/mcp-lifecycle.test.ts",
  "durable-objects/conversation/mcp-oauth-turns.test.ts",
  "durable-objects/conversation/recovery.test.ts",
  "durable-objects/rate-limit/rate-limit-counter.test.ts",
  // Reset an object while a route's call to it waits (tests/support/notice-lost.ts).
  "workers/api/src/routes/reset-notices.test.ts",
  // Count log lines said once per isolate (shared/positive-setting.ts, config/required-*.ts).
  "workers/api/src/attachments/limits.test.ts",
  "workers/api/src/config/required-bindings.test.ts",
  "workers/api/src/config/required-secrets.test.ts",
  "durable-objects/conversation/operator-settings.test.ts",
  "durable-objects/conversation/turn-budgets.test.ts",
];

/** The api project's files with their own workerd each (isolated), as api-isolated runs them. */
export const apiTest = {
  name: "api",
  maxWorkers,
  include: [
    "workers/api/src/**/*.test.ts",
    "durable-objects/conversation/**/*.test.ts",
    "durable-objects/rate-limit/**/*.test.ts",
  ],
  // Run in their own workerd by tests/pdf-attachments (see its config for why).
  exclude: [...configDefaults.exclude, ...PDF_TEST_FILES],
  globalSetup: [root("../../tests/support/global-setup.ts")],
  setupFiles: [root("../../tests/support/apply-migrations.ts")],
  testTimeout: 20_000,
};

// Most files share a workerd, file after file: a fresh workerd per file, loading the worker's
// module graph again, was about 70% of this project's time (all 113 files isolated: 476 s on a
// quiet 2-core machine; shared, these 100 took 120-139 s). Storage is not emptied between files:
// a test makes its own users and reads only their rows. tests/support/shared-runtime.ts applies
// the migrations and loads the worker's modules once per runtime; Vitest restores spies after
// each file. Files that cannot share: ISOLATED_API_FILES.
export default defineProject({
  root: root("../.."),
  plugins: [apiWorkerPlugin()],
  test: {
    ...apiTest,
    isolate: false,
    exclude: [...apiTest.exclude, ...ISOLATED_API_FILES],
    setupFiles: [root("../../tests/support/shared-runtime.ts")],
  },
});
