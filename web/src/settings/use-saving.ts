// A settings form's save: busy while it runs, then what happened in words — the server's own
// message when it refuses — so every section of the panel reports the same way.
import { useState } from "react";
import { ApiFailure } from "../api";

export interface SaveStatus {
  error: boolean;
  text: string;
}

export function useSaving(failure: string) {
  const [status, setStatus] = useState<SaveStatus | null>(null);
  const [busy, setBusy] = useState(false);
  /** Runs `save`, which answers what to tell the user once it has saved. */
  const run = async (save: () => Promise<string>) => {
    setBusy(true);
    setStatus(null);
    try {
      setStatus({ error: false, text: await save() });
    } catch (err) {
      setStatus({ error: true, text: err instanceof ApiFailure ? err.message : failure });
    } finally {
      setBusy(false);
    }
  };
  /** Says what to fix instead of saving. */
  const refuse = (text: string) => setStatus({ error: true, text });
  return { status, busy, run, refuse };
}
