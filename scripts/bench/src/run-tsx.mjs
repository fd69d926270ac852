// The launchers in scripts/bench/ run their TypeScript bench from here with tsx (so it can use
// the e2e stack as it is), from the repository's root, and exit with its status.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));

/** Runs scripts/bench/src/`file` and exits as it did. */
export function runTsx(file) {
  const r = spawnSync(join(root, "node_modules/.bin/tsx"), [`scripts/bench/src/${file}`], {
    cwd: root,
    stdio: "inherit",
    env: process.env,
  });
  process.exit(r.status ?? 1);
}
