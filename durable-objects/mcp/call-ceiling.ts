// The longest one tool call may take, whatever progress it reports. The SDK's `maxTotalTimeout`
// is only checked when progress arrives; this ends the call at the ceiling itself and, being an
// abort, tells the server (notifications/cancelled) so its work stops too.
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

export function callCeiling(
  signal: AbortSignal,
  maxTotalMs: number,
  message: string,
): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new McpError(ErrorCode.RequestTimeout, message)),
    maxTotalMs,
  );
  const forward = () => controller.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener("abort", forward, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", forward);
    },
  };
}
