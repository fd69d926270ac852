import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";
import { maxWorkers } from "../../vitest.workers.ts";

// The URL guard and circuit breaker are pure logic: plain Node.
export default defineProject({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    name: "mcp",
    maxWorkers,
    include: ["durable-objects/mcp/**/*.test.ts"],
    environment: "node",
  },
});
