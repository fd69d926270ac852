// In-process: bundles the loop benchmark (TypeScript) with esbuild and runs it in Node (no
// workerd, no network; e2e.mjs measures the app as it runs).
import { runBundledBench } from "../lib/run-bundled-bench.mjs";

await runBundledBench("loop-bench");
