import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";
import { maxWorkers } from "../../vitest.workers.ts";

// The wire contract and the transcript fold are plain TypeScript, shared by workers and web.
export default defineProject({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    name: "protocol",
    maxWorkers,
    include: ["durable-objects/protocol/**/*.test.ts"],
    environment: "node",
  },
});
