// Under a message: Edit a question, Regenerate an answer, or Branch here. Each makes a branch
// (nothing earlier is lost) and opens it; the versions of the message switch with ‹ n/m ›.
import { useState } from "react";
import type { BranchRequest } from "../../../durable-objects/protocol/branches";
import { messageText } from "../../../durable-objects/protocol/messages";
import type { TranscriptMessage } from "../../../durable-objects/protocol/transcript";
import "./branches.css";

export type BranchAction = Pick<BranchRequest, "messageId" | "step" | "text">;

export function MessageActions(props: {
  message: TranscriptMessage;
  /** Makes the branch and opens it; rejects with a message a person can read. */
  onBranch: (action: BranchAction) => Promise<void>;
}) {
  const { message } = props;
  const [editing, setEditing] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const act = (action: BranchAction) => {
    setWorking(true);
    setError(null);
    props
      .onBranch(action)
      .then(
        () => setEditing(null),
        (err: unknown) => setError(err instanceof Error ? err.message : "The branch failed."),
      )
      .finally(() => setWorking(false));
  };
  if (message.status === "streaming") return null;

  if (editing !== null)
    return (
      <form
        className="message-edit"
        onSubmit={(e) => {
          e.preventDefault();
          if (editing.trim()) act({ messageId: message.id, text: editing.trim() });
        }}
      >
        <textarea
          aria-label="Edited message"
          value={editing}
          rows={3}
          onChange={(e) => setEditing(e.target.value)}
        />
        <div className="message-actions">
          <button type="submit" className="primary" disabled={working || !editing.trim()}>
            Send edit
          </button>
          <button type="button" onClick={() => setEditing(null)} disabled={working}>
            Cancel
          </button>
        </div>
        {error && (
          <p role="alert" className="error small">
            {error}
          </p>
        )}
      </form>
    );

  return (
    <div className="message-actions small">
      {message.role === "user" ? (
        <button
          type="button"
          className="link"
          disabled={working}
          onClick={() => setEditing(messageText(message.content))}
        >
          Edit
        </button>
      ) : (
        <>
          <button
            type="button"
            className="link"
            disabled={working}
            onClick={() => act({ messageId: message.id, step: 0 })}
          >
            Regenerate
          </button>
          <button
            type="button"
            className="link"
            disabled={working}
            onClick={() => act({ messageId: message.id })}
          >
            Branch here
          </button>
        </>
      )}
      {error && (
        <p role="alert" className="error small">
          {error}
        </p>
      )}
    </div>
  );
}
