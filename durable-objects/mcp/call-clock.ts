// The time limits of one tool call, kept here rather than by the SDK so that they can stand still
// while the server waits for the user (an elicitation): a form being filled in is not a server
// that stopped answering. Two limits end the call by aborting it (which tells the server, through
// notifications/cancelled, that its work may stop):
// - idle: no progress for `idleMs` (progress resets it);
// - ceiling: `maxTotalMs` in all, whatever progress it reports.
// The SDK's `maxTotalTimeout` is only checked when progress arrives, hence our own ceiling.
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

/**
 * The call reached its ceiling: the tool kept working (and reporting) for longer than allowed.
 * The server answers, so this is no sign that it is down (unlike the idle limit).
 */
export class CeilingReached extends McpError {}

/** The SDK's own per-request timer, pushed out of the way (setTimeout's largest delay). */
export const NO_SDK_TIMEOUT = 2_147_483_647;

export interface CallClock {
  /** Aborted when a limit is reached (with an McpError RequestTimeout) or the caller aborts. */
  signal: AbortSignal;
  /** Progress arrived: the idle limit starts again. */
  progressed(): void;
  /** Stops both limits until the returned function is called (holds may overlap). */
  hold(): () => void;
  dispose(): void;
}

export function callClock(
  signal: AbortSignal,
  limits: { idleMs: number; maxTotalMs: number; ceilingMessage: string },
): CallClock {
  const controller = new AbortController();
  const stop = (message: string) =>
    controller.abort(new McpError(ErrorCode.RequestTimeout, message));
  const stopAtCeiling = () =>
    controller.abort(new CeilingReached(ErrorCode.RequestTimeout, limits.ceilingMessage));
  let holds = 0;
  let spent = 0;
  let since = Date.now();
  let idle: ReturnType<typeof setTimeout> | undefined;
  let ceiling: ReturnType<typeof setTimeout> | undefined;
  const clear = () => {
    clearTimeout(idle);
    clearTimeout(ceiling);
  };
  const start = () => {
    since = Date.now();
    idle = setTimeout(() => stop("Request timed out"), limits.idleMs);
    ceiling = setTimeout(stopAtCeiling, Math.max(0, limits.maxTotalMs - spent));
  };
  const forward = () => controller.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener("abort", forward, { once: true });
  start();
  return {
    signal: controller.signal,
    progressed() {
      if (holds > 0) return;
      clearTimeout(idle);
      idle = setTimeout(() => stop("Request timed out"), limits.idleMs);
    },
    hold() {
      if (holds++ === 0) {
        clear();
        spent += Date.now() - since;
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        if (--holds === 0 && !controller.signal.aborted) start();
      };
    },
    dispose() {
      clear();
      holds = Infinity;
      signal.removeEventListener("abort", forward);
    },
  };
}
