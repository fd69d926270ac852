// A settings form's save: busy while it runs, then what happened in words — the server's own
// message when it refuses — so every section of the panel reports the same way.
import { useState } from "react";
import { ApiFailure } from "../api";

export const OFFLINE_SAVE = "You're offline: changes can be saved once you're back online.";

/** Why a save failed, in words: the server's own, being offline, or the section's `failure`. */
export function saveFailureWords(err: unknown, failure: string): string {
  if (err instanceof ApiFailure) return err.message;
  return typeof navigator !== "undefined" && !navigator.onLine ? OFFLINE_SAVE : failure;
}

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
      setStatus({ error: true, text: saveFailureWords(err, failure) });
    } finally {
      setBusy(false);
    }
  };
  /** Says what to fix instead of saving. */
  const refuse = (text: string) => setStatus({ error: true, text });
  return { status, busy, run, refuse };
}
