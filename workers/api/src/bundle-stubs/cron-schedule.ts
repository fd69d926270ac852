// Stands in for `cron-schedule` in the API worker's bundle (wrangler.toml `alias`). `agents` loads
// it only for schedules given as a cron expression; this app schedules by a date or a delay.
export function parseCronExpression(): never {
  throw new Error(
    "Cron schedules are not part of this app: cron-schedule is not bundled in the API worker (wrangler.toml alias). Schedule with a Date or a delay in seconds.",
  );
}
