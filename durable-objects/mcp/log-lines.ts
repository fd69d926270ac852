// How much of a server's logging (notifications/message) one tool call may put in the timeline.
// Every line becomes an event the conversation keeps and replays to each client, so a server
// that logs without end, or logs megabytes in a line, must not bloat the conversation.

/** Lines of one call shown; the next says the rest were left out. */
export const MAX_LOG_LINES_PER_CALL = 100;
/** Characters of one line shown (its data as JSON when it is not a string). */
export const MAX_LOG_LINE_CHARS = 2_000;

export interface LogLine {
  level: string;
  data: unknown;
}

/** A filter for one call's log lines: each line as shown, or null once the call's cap is reached. */
export function logLineLimiter(): (line: LogLine) => LogLine | null {
  let seen = 0;
  return (line) => {
    seen++;
    if (seen === MAX_LOG_LINES_PER_CALL + 1)
      return {
        level: "warning",
        data: `The server's further log lines during this call are left out: a call shows at most ${MAX_LOG_LINES_PER_CALL}.`,
      };
    if (seen > MAX_LOG_LINES_PER_CALL) return null;
    const text = typeof line.data === "string" ? line.data : JSON.stringify(line.data);
    if (text === undefined || text.length <= MAX_LOG_LINE_CHARS) return line;
    return {
      level: line.level,
      data: `${text.slice(0, MAX_LOG_LINE_CHARS)}… (cut: the line has ${text.length} characters)`,
    };
  };
}
