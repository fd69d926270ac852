// What conversations leave behind in the runtime once idle: the resident memory of the dev
// server's workerd after many one-turn conversations, measured again after they went idle.
// Runs src/idle-memory-bench.ts with tsx so it can use the e2e stack as it is.
import { runTsx } from "./src/run-tsx.mjs";

runTsx("idle-memory-bench.ts");
