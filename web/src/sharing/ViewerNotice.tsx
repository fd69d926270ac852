// In place of the composer for someone who may read but not write: the box is there, disabled,
// with the reason and what to do about it.
export function ViewerNotice(props: { reason: "viewer" | "revoked"; owner?: string | undefined }) {
  const why =
    props.reason === "viewer"
      ? `You are a viewer of this conversation: you can read and follow it, but not send, cancel or approve. Ask ${props.owner ?? "its owner"} to make you a participant.`
      : "The owner no longer shares this conversation with you.";
  return (
    <div className="composer viewer-notice" data-testid="viewer-notice">
      <textarea disabled aria-describedby="viewer-reason" placeholder="Read only" rows={2} />
      <p id="viewer-reason" className="muted small" role="note">
        {why}
      </p>
    </div>
  );
}
