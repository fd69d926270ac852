// Runs `conformance client --suite <suite>` with our client command and reads back, per
// scenario, the checks the tool recorded and what our client printed.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CLIENT = fileURLToPath(new URL("./mcp-auth-client.ts", import.meta.url));

const Check = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  status: z.enum(["SUCCESS", "FAILURE", "WARNING", "SKIPPED", "INFO"]),
  errorMessage: z.string().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type Check = z.infer<typeof Check>;

export interface ScenarioResult {
  checks: Check[];
  /** What our client printed: its steps on stdout, its error on stderr. */
  stdout: string;
  stderr: string;
}

export interface SuiteRun {
  /** Every scenario the suite ran, from the tool's own summary. */
  scenarios: string[];
  results: Map<string, ScenarioResult>;
  /** The tool's summary, for failure messages. */
  summary: string;
}

function conformanceCli(): string {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve("@modelcontextprotocol/conformance/package.json");
  return join(pkg, "..", "dist", "index.js");
}

/** Result folders are `<scenario>-<ISO time>`, under the scenario's own path (`auth/...`). */
function readResults(outDir: string): Map<string, ScenarioResult> {
  const results = new Map<string, ScenarioResult>();
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const path = join(dir, entry.name);
      if (!existsSync(join(path, "checks.json"))) {
        walk(path, `${prefix}${entry.name}/`);
        continue;
      }
      const name = prefix + entry.name.replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, "");
      results.set(name, {
        checks: z.array(Check).parse(JSON.parse(readFileSync(join(path, "checks.json"), "utf8"))),
        stdout: readFileSync(join(path, "stdout.txt"), "utf8"),
        stderr: readFileSync(join(path, "stderr.txt"), "utf8"),
      });
    }
  };
  walk(outDir, "");
  return results;
}

export async function runConformanceSuite(suite: string, outDir: string): Promise<SuiteRun> {
  // The tool splits the command on spaces and runs it through a shell; the Node running this
  // test (22, which the tool and our client need) runs both.
  const command = `${process.execPath} --import tsx ${CLIENT}`;
  if (/\s/.test(ROOT)) throw new Error(`the repository path must not contain spaces: ${ROOT}`);
  const args = [conformanceCli(), "client", "--suite", suite, "--command", command];
  // Fourteen clients start at once on a small machine: give each more than the default 30 s.
  args.push("--timeout", "120000", "-o", outDir);
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", () => resolve());
  });
  const summary = stdout.slice(stdout.indexOf("=== SUITE SUMMARY ==="));
  const scenarios = [...summary.matchAll(/^[✓✗] (\S+): /gm)].map((m) => m[1]!);
  if (scenarios.length === 0)
    throw new Error(`the conformance tool printed no summary:\n${stdout}\n${stderr.slice(-4000)}`);
  return { scenarios, results: readResults(outDir), summary };
}
