import { availableParallelism } from "node:os";

/**
 * How many test files a project runs at once; every project sets it, as projects run side by
 * side must agree. Vitest's default is one fewer than the cores: one on a 2-core machine. Most
 * files wait on workerd, wrangler dev or Chromium rather than compute, so two run at once even
 * there (a 2-core run: 1,178 s of Vitest with one, about 500 s with three; with three, tests that
 * time a turn against the 1 s first-write threshold failed now and then).
 * `VITEST_MAX_WORKERS=1 npm test` runs them one by one.
 */
export const maxWorkers = Math.max(2, availableParallelism() - 1);
