// One step's tool calls in the timeline: per call a line a person can read (what it found, or
// why it failed) and how long it took; expanded, the arguments (long ones folded) and the raw
// result.
import { withoutBidiControls } from "../../../durable-objects/protocol/display-text";
import type { MessagePart } from "../../../durable-objects/protocol/messages";
import type { Activity } from "../../../durable-objects/protocol/transcript";
import { formatDuration, spanOf } from "./durations";
import { toolCallLine } from "./tool-summary";

type ToolCall = Extract<MessagePart, { type: "tool_call" }>;

/** Arguments longer than this fold behind their own toggle. */
const LONG_ARGUMENTS_CHARS = 240;

const STATUS_ICON: Record<ToolCall["status"], string> = {
  started: "⏳",
  done: "✓",
  failed: "✗",
  interrupted: "⚠",
};
const STATUS_LABEL: Record<ToolCall["status"], string> = {
  started: "running",
  done: "done",
  failed: "failed",
  interrupted: "interrupted",
};

export function ToolCalls(props: { calls: ToolCall[]; activity: Activity | undefined }) {
  const step = props.activity?.callSteps[props.calls[0]!.callId];
  const times = props.activity?.callTimes ?? {};
  const took = spanOf(props.calls.map((c) => times[c.callId]));
  // Calls held until the user answers their approval card: not running yet.
  const awaiting = new Set(
    Object.values(props.activity?.approvals ?? {})
      .filter((a) => !a.decided)
      .map((a) => a.callId),
  );
  return (
    <section className="tool-calls" aria-label={step ? `Tool calls of step ${step}` : "Tool calls"}>
      {step !== undefined && (
        <p className="muted small step-label">
          Step {step}
          {took !== null && ` · ${formatDuration(took)}`}
        </p>
      )}
      <ul>
        {props.calls.map((call) => (
          <ToolCallItem
            key={call.callId}
            call={call}
            progress={props.activity?.progress[call.callId]}
            took={spanOf([times[call.callId]])}
            awaitingApproval={call.status === "started" && awaiting.has(call.callId)}
          />
        ))}
      </ul>
    </section>
  );
}

function ToolCallItem(props: {
  call: ToolCall;
  progress: Activity["progress"][string] | undefined;
  took: number | null;
  awaitingApproval: boolean;
}) {
  const { call, progress, awaitingApproval } = props;
  const running = call.status === "started";
  const args = pretty(call.arguments);
  return (
    <li className={`tool-call ${call.status}`} data-testid="tool-call" data-status={call.status}>
      <details>
        <summary>
          <span aria-hidden="true">{awaitingApproval ? "✋" : STATUS_ICON[call.status]}</span>{" "}
          {/* The server names its tools: no override may reorder the line. */}
          <span className="tool-server">{call.server}</span> ·{" "}
          <strong>{withoutBidiControls(call.tool)}</strong>{" "}
          <span className="visually-hidden">
            ({awaitingApproval ? "waiting for your approval" : STATUS_LABEL[call.status]})
          </span>
          <span className="tool-summary" data-testid="tool-summary">
            {" "}
            — {awaitingApproval ? "Waiting for your approval below." : toolCallLine(call)}
          </span>
          {props.took !== null && (
            <span className="muted small tool-time"> · {formatDuration(props.took)}</span>
          )}
        </summary>
        {args.length > LONG_ARGUMENTS_CHARS ? (
          <details className="tool-arguments">
            <summary>Arguments ({args.split("\n").length} lines)</summary>
            <pre className="tool-json">{args}</pre>
          </details>
        ) : (
          <>
            <h4>Arguments</h4>
            <pre className="tool-json">{args}</pre>
          </>
        )}
        {call.summary !== undefined && (
          <>
            <h4>{call.status === "failed" ? "Error (as the tool said it)" : "Raw result"}</h4>
            <pre className="tool-json">{call.summary}</pre>
          </>
        )}
      </details>
      {running && progress && (
        <div className="tool-progress">
          <progress
            aria-label={`Progress of ${call.tool}`}
            value={progress.progress}
            {...(progress.total !== undefined && { max: progress.total })}
          />
          <span className="muted small">
            {progress.total !== undefined
              ? `${progress.progress} / ${progress.total}`
              : progress.progress}
            {progress.message && ` — ${progress.message}`}
          </span>
        </div>
      )}
    </li>
  );
}

function pretty(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value, null, 2) ?? String(value);
}
