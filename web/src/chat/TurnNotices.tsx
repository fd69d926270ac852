// What the server told the user during this answer (a notice: a model given an attachment's text
// instead of the file, a fallback model, a cut-off answer), shown in the answer itself rather
// than only inside the folded Log. Notices with an action (sign-in) have their own card.
import type { Activity } from "../../../durable-objects/protocol/transcript";

export function turnNotices(log: Activity["log"]): Activity["log"] {
  return log.filter((line) => line.source === "notice" && !line.action);
}

export function TurnNotices({ log }: { log: Activity["log"] }) {
  return turnNotices(log).map((line) => (
    <p
      key={line.seq}
      role="note"
      className={`banner turn-notice ${line.level === "info" ? "info" : "warning"}`}
      data-testid="turn-notice"
    >
      {line.text}
    </p>
  ));
}
