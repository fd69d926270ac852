// Says so when the browser has no network, on every screen (the chat's own banner covers only
// its socket). The app shell comes from the service worker, so this can show with no network.
import { useSyncExternalStore } from "react";

const subscribe = (onChange: () => void) => {
  window.addEventListener("online", onChange);
  window.addEventListener("offline", onChange);
  return () => {
    window.removeEventListener("online", onChange);
    window.removeEventListener("offline", onChange);
  };
};

export function OfflineBanner() {
  const online = useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
  if (online) return null;
  return (
    <div role="status" className="banner warning" data-testid="offline-app">
      You are offline. What you opened stays readable; new answers wait for the network.
    </div>
  );
}
