// "A new version is ready": shown once a service worker of another build than this page's has
// installed (app-update.ts). Polite: it waits for the user, who reloads when it suits them; the
// message box's draft and files (composer/draft-store.ts) and unsent messages (chat/outbox.ts)
// outlive it.
import { useSyncExternalStore } from "react";
import { newBuildReady, onNewBuildReady } from "../app-update";

export function UpdateNotice() {
  const ready = useSyncExternalStore(onNewBuildReady, newBuildReady, () => false);
  if (!ready) return null;
  return (
    <div role="status" className="banner info" data-testid="update-ready">
      A new version is ready.{" "}
      <button type="button" onClick={() => location.reload()}>
        Reload
      </button>
    </div>
  );
}
