// How often one tool call's progress reaches the timeline. Each report becomes an event the
// conversation keeps and replays, and a person reads a bar, not a stream: a server that reports
// thousands of times a second must not bloat the conversation. The latest report always shows.

/** At most one progress event per call in this time. */
export const PROGRESS_EVERY_MS = 250;
/** Characters of a progress message shown. */
export const MAX_PROGRESS_MESSAGE_CHARS = 300;

export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * Paces `emit`: a report is passed on at once when the last one went out PROGRESS_EVERY_MS ago,
 * otherwise it waits for that time (a newer report replacing it). `stop()` drops a waiting one.
 */
export function pacedProgress(
  emit: (p: Progress) => void,
  now: () => number = Date.now,
): { report: (p: Progress) => void; stop: () => void } {
  let last = -Infinity;
  let waiting: Progress | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const send = (p: Progress) => {
    last = now();
    const message =
      p.message && p.message.length > MAX_PROGRESS_MESSAGE_CHARS
        ? `${p.message.slice(0, MAX_PROGRESS_MESSAGE_CHARS)}…`
        : p.message;
    emit({ ...p, ...(message !== undefined && { message }) });
  };
  return {
    report(p) {
      const due = last + PROGRESS_EVERY_MS - now();
      if (due <= 0 && !timer) return send(p);
      waiting = p;
      timer ??= setTimeout(
        () => {
          timer = undefined;
          if (waiting) send(waiting);
          waiting = null;
        },
        Math.max(0, due),
      );
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
      waiting = null;
    },
  };
}
