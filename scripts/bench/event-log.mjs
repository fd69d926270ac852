// The event log under `wrangler dev`: what streaming an answer costs the server per model delta,
// and how long a client takes to catch up on a long conversation (WebSocket and SSE). Runs
// src/event-log-bench.ts with tsx so it can use the e2e stack as it is.
import { runTsx } from "./src/run-tsx.mjs";

runTsx("event-log-bench.ts");
