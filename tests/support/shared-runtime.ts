/// <reference types="vite/client" />
// Setup for the api project's files that share a workerd, one file after another (isolate: false;
// see workers/api/vitest.config.ts). Runs before each of them.
import { applyD1Migrations, env } from "cloudflare:test";
import { exports } from "cloudflare:workers";

// The schema, once per runtime (applied migrations are skipped). Storage is not emptied between
// files: every test makes its own users, whose conversations and rows no other file sees, and
// emptying it (reset()) would end the previous file's objects mid-task (see below).
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS ?? []);

// Every module of the worker, loaded before the first test. In tests, each import() the app makes
// is a round trip to Vite that the module runner keeps pending for every later import of that
// module; if the Durable Object waiting for it is ended meanwhile (abortAllDurableObjects,
// reset()), the trip never settles and that module's import hangs for the rest of the runtime
// (no title, no outbox flush). Loaded here first, a lazy import does not also run the module
// (transform, evaluation) while an object waits; the files that end objects have runtimes of their
// own (ISOLATED_API_FILES).
const modules = import.meta.glob([
  "../../workers/api/src/**/*.ts",
  "../../durable-objects/**/*.ts",
  "../../shared/**/*.ts",
  "!**/*.test.ts",
  "!**/*.d.ts",
  "!**/*.config.ts",
  "!**/test/**",
]);
await withinTime(async () => {
  await Promise.all(Object.values(modules).map((load) => load()));
  // A package imported lazily (durable-objects/loop/language.ts), for the same reason.
  await import("franc-min");
  // The worker loads its routes on its first request (workers/api/src/index.ts).
  await exports.default.fetch("http://app.test/api/health");
});

/** Fails the file, instead of stalling the run, once an import hangs as described above. */
async function withinTime(load: () => Promise<void>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            "Loading the worker's modules hung: an earlier file in this runtime likely ended a " +
              "Durable Object during an import(). Move that file to ISOLATED_API_FILES " +
              "(workers/api/vitest.config.ts).",
          ),
        ),
      60_000,
    );
  });
  try {
    await Promise.race([load(), hung]);
  } finally {
    clearTimeout(timer);
  }
}
