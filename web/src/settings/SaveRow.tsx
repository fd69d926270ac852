// A settings form's submit button and, after a save, what happened (an alert when it failed).
import type { SaveStatus } from "./use-saving";

export function SaveRow(props: { label: string; busy: boolean; status: SaveStatus | null }) {
  const { status } = props;
  return (
    <div className="row">
      <button type="submit" className="primary" disabled={props.busy}>
        {props.label}
      </button>
      {status && (
        <p
          role={status.error ? "alert" : "status"}
          className={status.error ? "error small" : "muted small"}
        >
          {status.text}
        </p>
      )}
    </div>
  );
}
