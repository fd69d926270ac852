// The header's line about the user's place in a shared conversation: who shared it and their
// role, with Leave for a member; or, when that could not be read, why, with a way to try again
// (until it is read the app shows no owner-only control).
import { useState } from "react";
import type { MemberList } from "../../../durable-objects/protocol/sharing";
import { ConfirmDialog } from "../ui/dialog";

export function MemberHeader(props: {
  membership: MemberList | null;
  /** Why the membership did not load, or null. */
  failed: string | null;
  onRetry: () => void;
  title: string;
  /** Removes the user from the conversation; rejects with what went wrong. */
  onLeave: () => Promise<void>;
}) {
  const [asking, setAsking] = useState(false);
  const { membership } = props;
  if (props.failed)
    return (
      <span role="alert" className="small error" data-testid="membership-failed">
        · Your role in this conversation did not load ({props.failed}).{" "}
        <button type="button" className="link" onClick={props.onRetry}>
          Try again
        </button>
      </span>
    );
  if (!membership || membership.role === "owner") return null;
  const owner = membership.owner.name;
  return (
    <>
      <span className="muted small" data-testid="shared-by">
        · shared by {owner} · you are a {membership.role}
      </span>
      <button type="button" className="link small" onClick={() => setAsking(true)}>
        Leave
      </button>
      {asking && (
        <ConfirmDialog
          title="Leave this conversation?"
          message={`You will no longer see “${props.title}” or follow it, and it leaves “Shared with you”. Only ${owner} can share it with you again.`}
          confirmLabel="Leave conversation"
          onConfirm={async () => {
            await props.onLeave();
            setAsking(false);
          }}
          onCancel={() => setAsking(false)}
        />
      )}
    </>
  );
}

/** In place of the conversation once the user has left it. */
export function LeftNotice(props: { title: string; owner: string }) {
  return (
    <div className="centered" role="status" data-testid="left-conversation">
      <p>You left “{props.title}”.</p>
      <p className="muted small">
        It is no longer in “Shared with you”. To see it again, ask {props.owner} to share it with
        you.
      </p>
    </div>
  );
}
