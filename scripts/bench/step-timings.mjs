// Bundles the step-timings benchmark (TypeScript) with esbuild and runs it in Node.
import { runBundledBench } from "../lib/run-bundled-bench.mjs";

await runBundledBench("step-timings-bench");
