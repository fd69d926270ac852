// A tool call waiting for the user: server, tool and readable arguments (long values folded),
// Approve / Deny with an optional note for the model, and "always allow this tool". Once
// answered (here, in another tab, by another member, over REST, or by expiry) it shows who
// decided what, and when. A viewer sees the question but no buttons; "always allow" sets the
// owner's tool policy, so only the owner is offered it.
import { useRef, useState } from "react";
import { withoutBidiControls } from "../../../durable-objects/protocol/display-text";
import type { ApprovalView } from "../../../durable-objects/protocol/transcript";
import type { ApprovalAnswer } from "../../../durable-objects/protocol/wire";
import { type Answerer, SOLE_OWNER } from "../sharing/answerer";

/** Argument values longer than this are folded. */
export const FOLD_CHARS = 200;

export function ApprovalCard(props: {
  approval: ApprovalView;
  /** False when the answer could not be sent (offline): the buttons stay usable. */
  onAnswer?: (approvalId: string, answer: ApprovalAnswer) => boolean | undefined;
  /** Who looks at the card (shared conversations); the owner alone when left out. */
  answerer?: Answerer;
}) {
  const { approval, onAnswer } = props;
  const answerer = props.answerer ?? SOLE_OWNER;
  const [note, setNote] = useState("");
  const [remember, setRemember] = useState(false);
  const [sent, setSent] = useState(false);
  const card = useRef<HTMLElement>(null);
  const answer = (decision: ApprovalAnswer["decision"]) => {
    const delivered = onAnswer?.(approval.approvalId, {
      decision,
      ...(note.trim() && { note: note.trim() }),
      ...(decision === "approve" && remember && { remember: true }),
    });
    setSent(delivered !== false);
    // The buttons go once it is sent: the card keeps the focus, and then says what was decided.
    if (delivered !== false) card.current?.focus();
  };
  const decided = approval.decided;
  // The server names its tools: an override in a name could make the call read as another one.
  const tool = withoutBidiControls(approval.tool);
  return (
    <section
      ref={card}
      tabIndex={-1}
      className={`approval-card ${decided ? decided.decision : "pending"}`}
      data-testid="approval-card"
      aria-label={`Approval for ${tool}`}
    >
      <p>
        <strong>{decided ? "Tool call" : "Approve this tool call?"}</strong>{" "}
        <span className="tool-server">{approval.server}</span> · <strong>{tool}</strong>
      </p>
      <Arguments value={approval.arguments} />
      {decided ? (
        <p className="muted small" role="status">
          {decisionWords(decided, answerer)}
        </p>
      ) : answerer.role === "viewer" ? (
        <p className="muted small" role="status">
          Waiting for the owner or a participant to approve or deny: as a viewer you cannot answer.
          Waits until {new Date(approval.expiresAt).toLocaleString()}, then counts as denied.
        </p>
      ) : (
        <>
          <label className="small">
            Note for the model (optional)
            <input
              type="text"
              value={note}
              maxLength={2000}
              onChange={(e) => setNote(e.target.value)}
            />
          </label>
          {answerer.role === "owner" ? (
            <label className="small">
              <input
                type="checkbox"
                checked={remember}
                onChange={(e) => setRemember(e.target.checked)}
              />{" "}
              Always allow this tool
            </label>
          ) : (
            <p className="muted small">
              Your answer counts for this call only: only the owner can always allow a tool.
            </p>
          )}
          <div className="approval-buttons">
            <button type="button" disabled={sent} onClick={() => answer("approve")}>
              Approve
            </button>
            <button type="button" disabled={sent} onClick={() => answer("deny")}>
              Deny
            </button>
          </div>
          <p className="muted small">
            Waits until {new Date(approval.expiresAt).toLocaleString()}, then counts as denied.
          </p>
        </>
      )}
    </section>
  );
}

function Arguments({ value }: { value: unknown }) {
  const entries =
    value && typeof value === "object" && !Array.isArray(value)
      ? Object.entries(value as Record<string, unknown>)
      : [["arguments", value] as const];
  if (entries.length === 0) return <p className="muted small">No arguments.</p>;
  return (
    <dl className="approval-arguments">
      {entries.map(([key, v]) => {
        const text = typeof v === "string" ? v : (JSON.stringify(v, null, 2) ?? String(v));
        return (
          <div key={key}>
            <dt>{key}</dt>
            <dd>
              {text.length > FOLD_CHARS ? (
                <details>
                  <summary>{`${text.slice(0, FOLD_CHARS - 1)}… (${text.length} characters)`}</summary>
                  <pre className="tool-json">{text}</pre>
                </details>
              ) : (
                <pre className="tool-json">{text}</pre>
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

function decisionWords(d: NonNullable<ApprovalView["decided"]>, answerer: Answerer): string {
  const when = new Date(d.at).toLocaleString();
  const note = d.note ? ` — “${d.note}”` : "";
  switch (d.via) {
    case "expiry":
      return `Denied: nobody answered in time (${when}).`;
    case "cancel":
      return `Withdrawn: the answer was cancelled (${when}).`;
    default:
      return `${d.decision === "approve" ? "Approved" : "Denied"} by ${answerer.nameOf(d.userId)} (${d.via === "rest" ? "API" : "app"}, ${when})${note}.`;
  }
}
