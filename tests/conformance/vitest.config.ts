import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";
import { maxWorkers } from "../../vitest.workers.ts";

// The MCP authorization conformance suite, run against our sign-in code in plain Node (the
// conformance tool starts its servers on localhost and runs our client command per scenario).
export default defineProject({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    name: "conformance",
    maxWorkers,
    include: ["tests/conformance/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    // The whole suite runs once, before the assertions: fourteen client processes at once.
    hookTimeout: 240_000,
  },
});
