import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";
import { maxWorkers } from "../../vitest.workers.ts";

// Pure logic of the loop (formatter, artifacts, graphs) runs in plain Node; the loop itself is
// tested end to end in workerd by the api project.
export default defineProject({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    name: "loop",
    maxWorkers,
    include: ["durable-objects/loop/**/*.test.ts"],
    environment: "node",
  },
});
