// An action of the artifact pane (save, rename, restore, delete): busy while it runs, and the
// API's words when it fails.
import { useState } from "react";
import { failureWords } from "./artifact-api";

export function useArtifactAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(failureWords(err));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}
