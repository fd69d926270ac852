import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";

// The URL guard and circuit breaker are pure logic: plain Node.
export default defineProject({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: { name: "mcp", include: ["durable-objects/mcp/**/*.test.ts"], environment: "node" },
});
