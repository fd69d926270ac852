// Tool approvals: how long after an approval arrives a parked turn resumes, with its Durable
// Object asleep (the dev server restarted after the turns parked). Runs src/approvals-bench.ts
// with tsx so it can use the e2e stack as it is.
import { runTsx } from "./src/run-tsx.mjs";

runTsx("approvals-bench.ts");
