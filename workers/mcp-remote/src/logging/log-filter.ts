// Drops log lines below the level the client asked for, at the one place every line leaves the
// server: the transport's send. A request's own `_meta` level wins over its session's level.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  isJSONRPCRequest,
  type JSONRPCMessage,
  type LoggingLevel,
  LoggingMessageNotificationSchema,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import type { McpEnv } from "../env";
import { isBelow, levelInMeta } from "./levels";

const LOOKUP_TIMEOUT_MS = 1_000;

export const levelStore = (env: McpEnv, sessionId: string) =>
  env.SESSION_LOG_LEVELS.get(env.SESSION_LOG_LEVELS.idFromName(sessionId));

/**
 * The threshold for lines sent on behalf of a request: its `_meta` level, else the level its
 * session set (looked up once, on the first line, so calls that log nothing never ask).
 */
export function thresholds(
  env: McpEnv,
  sessionId: string | undefined,
  messages: JSONRPCMessage[],
): (requestId: RequestId | undefined) => Promise<LoggingLevel | undefined> {
  const perRequest = new Map<RequestId, LoggingLevel>();
  for (const m of messages) {
    if (!isJSONRPCRequest(m)) continue;
    const level = levelInMeta(m.params);
    if (level) perRequest.set(m.id, level);
  }
  let session: Promise<LoggingLevel | undefined> | undefined;
  return async (requestId) => {
    const own = requestId === undefined ? undefined : perRequest.get(requestId);
    if (own) return own;
    if (!sessionId) return undefined;
    // A store that cannot answer (soon) must neither hold the call nor cost it its log lines.
    session ??= Promise.race([
      levelStore(env, sessionId)
        .getLevel()
        .then((level) => level ?? undefined),
      new Promise<undefined>((resolve) => setTimeout(resolve, LOOKUP_TIMEOUT_MS)),
    ]).catch(() => undefined);
    return session;
  };
}

export function filterLogLines(
  transport: Transport,
  thresholdFor: (requestId: RequestId | undefined) => Promise<LoggingLevel | undefined>,
): void {
  const send = transport.send.bind(transport);
  // One queue, so a line held for the threshold lookup never falls behind the final answer.
  let queue: Promise<unknown> = Promise.resolve();
  transport.send = (message, options) => {
    const next = queue.then(async () => {
      const line = LoggingMessageNotificationSchema.safeParse(message);
      if (
        line.success &&
        isBelow(line.data.params.level, await thresholdFor(options?.relatedRequestId))
      )
        return;
      await send(message, options);
    });
    queue = next.catch(() => undefined);
    return next;
  };
}
