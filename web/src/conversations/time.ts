// "5 minutes ago" for recent activity, the date for older.
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

export function lastActivity(at: number, now = Date.now()): string {
  const seconds = Math.round((at - now) / 1000);
  if (Math.abs(seconds) < 60) return relative.format(0, "minute");
  const minutes = Math.round(seconds / 60);
  if (Math.abs(minutes) < 60) return relative.format(minutes, "minute");
  const hours = Math.round(minutes / 60);
  if (Math.abs(hours) < 24) return relative.format(hours, "hour");
  const days = Math.round(hours / 24);
  if (Math.abs(days) < 7) return relative.format(days, "day");
  return new Date(at).toLocaleDateString();
}
