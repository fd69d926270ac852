// Tool approvals: how long after an approval arrives a parked turn resumes, with its Durable
// Object asleep (the dev server restarted after the turns parked). Runs src/approvals-bench.ts
// with tsx so it can use the e2e stack as it is.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const r = spawnSync(join(root, "node_modules/.bin/tsx"), ["scripts/bench/src/approvals-bench.ts"], {
  cwd: root,
  stdio: "inherit",
  env: process.env,
});
process.exit(r.status ?? 1);
