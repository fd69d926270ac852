// What a tool handler gets from the request it answers: cancellation, progress and log lines,
// all sent on that request's own response stream (the server keeps no standing stream).
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type {
  LoggingLevel,
  ServerNotification,
  ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface ToolContext {
  signal: AbortSignal;
  progress(value: number, total: number, message: string): Promise<void>;
  log(level: LoggingLevel, message: string, data?: Record<string, unknown>): Promise<void>;
}

export function toolContext(extra: Extra, logger: string): ToolContext {
  // A client that went away must not turn a finished tool call into a failure.
  const send = (n: ServerNotification) => extra.sendNotification(n).catch(() => undefined);
  return {
    signal: extra.signal,
    async progress(value, total, message) {
      const token = extra._meta?.progressToken;
      if (token !== undefined)
        await send({
          method: "notifications/progress",
          params: { progressToken: token, progress: value, total, message },
        });
    },
    async log(level, message, data) {
      await send({
        method: "notifications/message",
        params: { level, logger, data: { message, ...data } },
      });
    },
  };
}

/** For code paths that run outside a request (unit tests of the API clients). */
export const silentContext = (signal = new AbortController().signal): ToolContext => ({
  signal,
  progress: async () => undefined,
  log: async () => undefined,
});
