// First: the first screen's requests start before anything else is evaluated.
import "./start-first-requests";
import { StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { OfflineBanner } from "./layout/OfflineBanner";
import { UpdateNotice } from "./layout/UpdateNotice";
import { registerServiceWorker } from "./register-service-worker";
import { sharedTokenOf } from "./sharing/shared-token";
import { lazyNamed } from "./ui/lazy-named";
import "./styles.css";

// Only a read-only link's page needs it: its code (markdown included) loads for that page alone.
const SharedSnapshotPage = lazyNamed(
  () => import("./sharing/SharedSnapshotPage"),
  "SharedSnapshotPage",
);

registerServiceWorker();

const sharedToken = sharedTokenOf(location.pathname);

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <OfflineBanner />
    <UpdateNotice />
    {/* A read-only link's page needs no sign-in: it shows the snapshot the link names. */}
    {sharedToken ? (
      <Suspense fallback={<p className="centered muted">Loading…</p>}>
        <SharedSnapshotPage token={sharedToken} />
      </Suspense>
    ) : (
      <App />
    )}
  </StrictMode>,
);
