import { defineProject } from "vitest/config";
import { apiTest, apiWorkerPlugin, ISOLATED_API_FILES } from "../../workers/api/vitest.config.ts";

const root = new URL("../..", import.meta.url).pathname;

// The api project's files that need a workerd of their own, one per file (why, file by file:
// ISOLATED_API_FILES in workers/api/vitest.config.ts). Same worker and bindings as the api project.
export default defineProject({
  root,
  plugins: [apiWorkerPlugin()],
  test: { ...apiTest, name: "api-isolated", include: ISOLATED_API_FILES, exclude: [] },
});
