// Log levels: their order, and where a client asks for one on a single request.
import { type LoggingLevel, LoggingLevelSchema } from "@modelcontextprotocol/sdk/types.js";

/**
 * The `_meta` key under which a request carries its own log level. It is how the stateless
 * revision of MCP (2026-07-28) replaces `logging/setLevel`; honouring it now costs nothing.
 */
export const LOG_LEVEL_META_KEY = "io.modelcontextprotocol/logLevel";

const SEVERITY = new Map(LoggingLevelSchema.options.map((level, index) => [level, index]));

/** Whether a line at `level` is less severe than the client asked for. */
export function isBelow(level: LoggingLevel, threshold: LoggingLevel | undefined): boolean {
  if (!threshold) return false;
  return (SEVERITY.get(level) ?? 0) < (SEVERITY.get(threshold) ?? 0);
}

/** The level a request's `_meta` asks for, when it names a valid one. */
export function levelInMeta(params: unknown): LoggingLevel | undefined {
  if (typeof params !== "object" || params === null) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  if (typeof meta !== "object" || meta === null) return undefined;
  const parsed = LoggingLevelSchema.safeParse(
    (meta as Record<string, unknown>)[LOG_LEVEL_META_KEY],
  );
  return parsed.success ? parsed.data : undefined;
}
