// End to end: the real app under `wrangler dev` with aimock at zero latency, timed from a
// WebSocket client (turn latency, first turns, crowds of new conversations, runtime memory).
// Runs src/e2e-bench.ts with tsx so it can use the e2e stack as it is. Quick run:
// BENCH_E2E_RUNS=5 BENCH_E2E_CROWDS=20 BENCH_E2E_MEMORY_CONVERSATIONS=0 npm run bench -- e2e
import { runTsx } from "./src/run-tsx.mjs";

runTsx("e2e-bench.ts");
