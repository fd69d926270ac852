import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { OfflineBanner } from "./layout/OfflineBanner";
import { registerServiceWorker } from "./register-service-worker";
import "./styles.css";

registerServiceWorker();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <OfflineBanner />
    <App />
  </StrictMode>,
);
