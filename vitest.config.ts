import { defineConfig } from "vitest/config";

// Each layer owns its test project; `npm test` runs them all.
export default defineConfig({
  test: {
    projects: [
      "workers/*/vitest.config.ts",
      "durable-objects/*/vitest.config.ts",
      "web/**/vitest.config.ts",
      "tests/*/vitest.config.ts",
    ],
    // The worker's one-line-per-request info logs are for `wrangler tail`; in test output they
    // bury the failures. Warnings and errors still show.
    onConsoleLog: (log) => !log.startsWith('{"level":"info"'),
  },
});
