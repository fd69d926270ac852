// The edit form of a saved MCP server's options: enabled and the per-call timeout, which the
// form shows in seconds and the API stores in milliseconds (1 s to 10 min, as the API allows).
export const MIN_TIMEOUT_SECONDS = 1;
export const MAX_TIMEOUT_SECONDS = 600;

export type TimeoutInput = { ok: true; timeoutMs: number } | { ok: false; error: string };

/** The timeout typed in seconds, as milliseconds, or what is wrong with it. */
export function parseTimeoutSeconds(typed: string): TimeoutInput {
  const text = typed.trim();
  const seconds = Number(text);
  if (text === "" || !Number.isFinite(seconds))
    return { ok: false, error: "Type the timeout as a number of seconds, for example 60." };
  if (!Number.isInteger(seconds))
    return { ok: false, error: "Type the timeout in whole seconds, for example 60." };
  if (seconds < MIN_TIMEOUT_SECONDS || seconds > MAX_TIMEOUT_SECONDS)
    return {
      ok: false,
      error: `Choose a timeout from ${MIN_TIMEOUT_SECONDS} to ${MAX_TIMEOUT_SECONDS} seconds (10 minutes).`,
    };
  return { ok: true, timeoutMs: seconds * 1000 };
}
