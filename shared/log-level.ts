// Which of the operator's JSON log lines a worker writes: LOG_LEVEL "info" (every request and
// turn, the default), "warn" or "error". Under `wrangler dev` each console line crosses
// wrangler's inspector and is printed again by wrangler, on a machine that also runs every
// worker: a request's info line cost its socket open about a quarter of its time there, where
// wrangler already prints each request. So local development (wrangler.toml's top-level vars)
// writes warnings and errors only; deployed, a line is cheap and Workers Logs keeps it.

const LEVELS = ["info", "warn", "error"] as const;
export type LogLevel = (typeof LEVELS)[number];

const reported = new Set<string>();

/** The configured level; an unknown one is said once and read as "info", so nothing is hidden. */
function configuredLevel(value: string | undefined): LogLevel {
  const level = (value ?? "").trim().toLowerCase();
  if (level === "") return "info";
  if ((LEVELS as readonly string[]).includes(level)) return level as LogLevel;
  if (!reported.has(level)) {
    reported.add(level);
    console.error(
      JSON.stringify({
        level: "error",
        event: "config",
        message: `LOG_LEVEL must be one of ${LEVELS.join(", ")}; "${value}" is ignored and info lines are written.`,
      }),
    );
  }
  return "info";
}

/** Whether a line of `level` is written under the env's LOG_LEVEL. */
export const writesLevel = (env: { LOG_LEVEL?: string }, level: LogLevel): boolean =>
  LEVELS.indexOf(level) >= LEVELS.indexOf(configuredLevel(env.LOG_LEVEL));
