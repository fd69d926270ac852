// Where a client asks to resume (SSE's Last-Event-ID, a WebSocket `resume`'s lastSeq) must be a
// point this conversation's log has reached. A point past its end (another conversation's, or
// made up) would skip every event until the log caught up with it: the client would miss them.
import type { ErrorInfo } from "../protocol/wire";

export function resumePastEnd(
  asked: { name: string; seq: number | undefined; afresh: string },
  lastSeq: number,
): ErrorInfo | null {
  if (asked.seq === undefined || asked.seq <= lastSeq) return null;
  return {
    code: "validation_failed",
    message:
      `${asked.name} ${asked.seq} is past this conversation's last event, ${lastSeq}. ` +
      `Resume from a seq this conversation sent you, or ${asked.afresh} to start afresh.`,
  };
}
