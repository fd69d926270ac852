import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { OfflineBanner } from "./layout/OfflineBanner";
import { registerServiceWorker } from "./register-service-worker";
import { SharedSnapshotPage, sharedTokenOf } from "./sharing/SharedSnapshotPage";
import "./styles.css";

registerServiceWorker();

const sharedToken = sharedTokenOf(location.pathname);

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <OfflineBanner />
    {/* A read-only link's page needs no sign-in: it shows the snapshot the link names. */}
    {sharedToken ? <SharedSnapshotPage token={sharedToken} /> : <App />}
  </StrictMode>,
);
