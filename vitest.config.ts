import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// Vitest's default is one worker fewer than the cores: one on a 2-core machine. Most files wait
// on workerd, wrangler dev or Chromium rather than compute, so three run side by side even there
// (a 2-core run: 1,178 s with one, 595 s with three). Each project resolves its own maxWorkers
// and a root `test.maxWorkers` does not reach them; Vitest's variable does. Set it to override.
process.env.VITEST_MAX_WORKERS ??= String(Math.max(3, availableParallelism() - 1));

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
