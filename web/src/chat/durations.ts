// How long a step or a tool call took, in words short enough for the timeline.
export interface Span {
  startedAt: number;
  endedAt?: number | undefined;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return seconds ? `${minutes} min ${seconds} s` : `${minutes} min`;
}

/** The time from the first start to the last end, or null while any is still running. */
export function spanOf(spans: readonly (Span | undefined)[]): number | null {
  const known = spans.filter((s): s is Span => s !== undefined);
  if (known.length === 0 || known.length < spans.length) return null;
  const ends = known.map((s) => s.endedAt);
  if (ends.some((e) => e === undefined)) return null;
  return Math.max(...(ends as number[])) - Math.min(...known.map((s) => s.startedAt));
}
