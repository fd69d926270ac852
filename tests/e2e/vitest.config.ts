import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";
import { maxWorkers } from "../../vitest.workers.ts";

// End-to-end: the real app under `wrangler dev`, driven from Node over HTTP and WebSocket.
export default defineProject({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    name: "e2e",
    maxWorkers,
    include: ["tests/e2e/**/*.test.ts"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // A page waited on (a lazy chunk, a render) can take seconds on a busy 2-core machine with
    // other files running beside it; what never comes still fails, after 10 s instead of 1 s.
    expect: { poll: { timeout: 10_000 } },
  },
});
