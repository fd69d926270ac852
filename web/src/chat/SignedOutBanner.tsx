// Shown when the live connection was closed because this browser's session or the token it
// signed in with was revoked: reconnecting cannot help, signing in again does.
export function SignedOutBanner() {
  return (
    <div role="alert" className="banner error" data-testid="signed-out">
      You were signed out: this browser&apos;s session or the token it signed in with was revoked.{" "}
      <button type="button" onClick={() => location.reload()}>
        Sign in again
      </button>
    </div>
  );
}
