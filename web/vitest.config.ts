import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";
import { maxWorkers } from "../vitest.workers.ts";

// The web client's logic and components, rendered to markup in Node (the real browser is in
// tests/e2e), and its build's own steps (web/build).
export default defineProject({
  root: fileURLToPath(new URL("..", import.meta.url)),
  test: {
    name: "web",
    maxWorkers,
    include: ["web/src/**/*.test.{ts,tsx}", "web/build/**/*.test.ts"],
    environment: "node",
    setupFiles: ["web/src/test-setup.ts"],
  },
});
