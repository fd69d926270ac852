// Before and after in one run (issue 14): this checkout against an earlier commit of it, each
// under its own `wrangler dev` with aimock at zero latency, turns interleaved; prints both p50/p99
// and this / base. Separate runs of the same code differ by more than most changes do; this
// ratio does not. Skipped unless BENCH_AB_BASE names the commit to compare with:
//   BENCH_AB_BASE=HEAD~3 npm run bench -- ab
// Runs src/ab-bench.ts with tsx so it can use the e2e stack as it is.
import { runTsx } from "./src/run-tsx.mjs";

runTsx("ab-bench.ts");
