// "90d", "12h", "30m": durations for --expires, in milliseconds.
const UNITS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Milliseconds for `text`, or null when it is not a positive number followed by m, h, d or w. */
export function parseDuration(text) {
  const match = /^(\d{1,6})([mhdw])$/.exec(String(text).trim());
  if (!match || Number(match[1]) === 0) return null;
  return Number(match[1]) * UNITS[match[2]];
}
