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
  },
});
