// Context assembly: converting a 2,000-message conversation (tool calls and results included)
// into the model's history and fitting it to the window, p50 and p99, and the request it makes.
// Runs src/context-bench.ts with tsx.
import { runTsx } from "./src/run-tsx.mjs";

runTsx("context-bench.ts");
