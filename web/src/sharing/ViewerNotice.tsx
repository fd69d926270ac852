// In place of the composer for someone who may read but not write (a viewer, a member the owner
// removed or who left, anyone whose conversation was deleted): the box is there, disabled, with
// the reason.
export function ViewerNotice(props: {
  reason: "viewer" | "revoked" | "left" | "deleted";
  owner?: string | undefined;
}) {
  const why =
    props.reason === "viewer"
      ? `You are a viewer of this conversation: you can read and follow it, but not send, cancel or approve. Ask ${props.owner ?? "its owner"} to make you a participant.`
      : props.reason === "deleted"
        ? "This conversation was deleted: it takes no more messages."
        : props.reason === "left"
          ? "You left this conversation."
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
