// Where each step's time went, in the answer's timeline: one line per step (its total), which a
// person expands to see the phases: queued, tool listing, each model call (time to first token,
// streaming, retries and their waits), the tool calls per server, checkpoints and pauses.
import type { ModelCallTimings, StepTimings } from "../../../durable-objects/protocol/timings";
import { formatDuration } from "./durations";

export function StepTimingsList(props: { timings: readonly StepTimings[] }) {
  if (props.timings.length === 0) return null;
  return (
    <section className="step-timings" aria-label="Step timings">
      {props.timings.map((t, i) => (
        <details key={i} data-testid="step-timings">
          <summary className="muted small">
            {t.answer ? `Answer after step ${t.step}` : `Step ${t.step}`} took{" "}
            {formatDuration(t.totalMs)}
          </summary>
          <ul className="small">
            {phasesOf(t).map(([label, text]) => (
              <li key={label}>
                <span className="muted">{label}:</span> {text}
              </li>
            ))}
          </ul>
        </details>
      ))}
    </section>
  );
}

/** The step's phases as [label, words], in the order they happen. */
export function phasesOf(t: StepTimings): [string, string][] {
  const phases: [string, string][] = [];
  if (t.queuedMs !== undefined) phases.push(["Queued", formatDuration(t.queuedMs)]);
  if (t.catalogMs !== undefined) phases.push(["Listing tools", formatDuration(t.catalogMs)]);
  t.model.forEach((m, i) =>
    phases.push([t.model.length > 1 ? `Model call ${i + 1}` : "Model", modelWords(m)]),
  );
  for (const s of t.servers)
    phases.push([
      `Tools on ${s.server}`,
      s.calls === 1
        ? `1 call, ${formatDuration(s.totalMs)}`
        : `${s.calls} calls, ${formatDuration(s.totalMs)} in all, slowest ${formatDuration(s.maxMs)}`,
    ]);
  if (t.pausedMs > 0) phases.push(["Paused (approval or restart)", formatDuration(t.pausedMs)]);
  phases.push(["Checkpoints", formatDuration(t.checkpointMs)]);
  return phases;
}

function modelWords(m: ModelCallTimings): string {
  const first =
    m.firstTokenMs === null ? "no tokens" : `first token after ${formatDuration(m.firstTokenMs)}`;
  const retries = m.retries.map(
    (r) => `retry ${r.attempt} after ${r.code} (waited ${formatDuration(r.waitMs)})`,
  );
  return [`${m.model}: ${first}`, `streamed for ${formatDuration(m.streamMs)}`, ...retries].join(
    ", ",
  );
}
