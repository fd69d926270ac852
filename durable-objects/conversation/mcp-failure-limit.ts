// The failure limit of a conversation's MCP servers: a server that failed `threshold` times in a
// row (within a turn or across turns: the count is kept in the DO's storage) is skipped for a
// cool-down, then tried once more. Only contact with the server moves the count: a catalog read
// from cache says nothing about whether the server works (circuit-breaker.ts does the arithmetic).
// Counted per server as configured: one the user edited (to fix it: its address, its headers)
// starts afresh.
import { z } from "zod";
import {
  type BreakerOptions,
  breakerAllows,
  closedBreaker,
  recordFailure,
  recordSuccess,
} from "../mcp/circuit-breaker";
import type { ServerConfig } from "./mcp-servers";
import type { ConversationStore } from "./store";

type Server = Pick<ServerConfig, "name" | "url" | "editedAt">;

/** A server skipped for its failures: how many in a row, for how long still, the last one's cause. */
export interface Skip {
  failures: number;
  forS: number;
  /** The last failure in a few words ("HTTP 502", "timed out after 30 s"), when known. */
  cause: string | null;
}

export interface FailureLimit {
  /** Null when the server may be called; otherwise why not. */
  skipped(server: Server): Skip | null;
  /**
   * The server answered: its failures in a row start again from none. True when it had reached
   * its limit (it is back).
   */
  succeeded(server: Server): boolean;
  /**
   * Counts one failure, `cause` in a few words; when it made the server skipped, its failures so
   * far and for how long.
   */
  failed(server: Server, cause: string): { failures: number; skippedForS: number } | null;
}

const PREFIX = "breaker:";
const failureKey = (s: Server) => `${PREFIX}${s.name}:${s.url}:${s.editedAt ?? 0}`;

// Rows written before the cause was kept have none; a row that cannot be read starts afresh.
const Stored = z.object({
  failures: z.number(),
  openedAt: z.number().nullable(),
  cause: z.string().optional(),
});
type Stored = z.infer<typeof Stored>;

function parse(raw: string | null): Stored {
  if (!raw) return closedBreaker();
  try {
    const parsed = Stored.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : closedBreaker();
  } catch {
    return closedBreaker();
  }
}

export function failureLimit(
  store: Pick<ConversationStore, "getMeta" | "setMeta">,
  opts: BreakerOptions,
  now: () => number = Date.now,
): FailureLimit {
  const read = (server: Server) => parse(store.getMeta(failureKey(server)));
  const write = (server: Server, state: Stored) =>
    store.setMeta(failureKey(server), JSON.stringify(state));
  const seconds = (ms: number) => Math.ceil(ms / 1000);
  return {
    skipped(server) {
      const state = read(server);
      const d = breakerAllows(state, now(), opts);
      return d.allow
        ? null
        : { failures: state.failures, forS: seconds(d.retryInMs), cause: state.cause ?? null };
    },
    succeeded(server) {
      const before = read(server);
      write(server, recordSuccess(before));
      return before.openedAt !== null;
    },
    failed(server, cause) {
      const state = { ...recordFailure(read(server), now(), opts), cause };
      write(server, state);
      return state.openedAt === null
        ? null
        : { failures: state.failures, skippedForS: seconds(opts.cooldownMs) };
    },
  };
}

/** Below this many characters of its cause a skip's sentence leaves the cause out. */
const MIN_CAUSE = 12;

/**
 * "failed 3 times in a row (last: HTTP 502) and is skipped for 25 s", at most `room` characters
 * long where it can be: the cause is cut (or left out) to fit, since a call's line in the
 * timeline shows 140 characters.
 */
export function skipSentence(skip: Skip, room = Infinity): string {
  const head = `failed ${skip.failures} times in a row`;
  const tail = ` and is skipped for ${skip.forS} s`;
  if (!skip.cause) return head + tail;
  const free = room - head.length - tail.length - " (last: )".length;
  if (free < MIN_CAUSE) return head + tail;
  const cause =
    skip.cause.length <= free ? skip.cause : `${skip.cause.slice(0, free - 1).trimEnd()}…`;
  return `${head} (last: ${cause})${tail}`;
}

/**
 * Forgets the counts of servers no longer configured so (removed, moved, edited since) and rows
 * in formats of earlier versions: each edit left one behind. Run off the send path (the idle
 * check after a turn).
 */
export function forgetOldFailures(
  store: Pick<ConversationStore, "metaWithPrefix" | "deleteMeta">,
  servers: Server[],
): void {
  const current = new Set(servers.map(failureKey));
  for (const { key } of store.metaWithPrefix(PREFIX)) if (!current.has(key)) store.deleteMeta(key);
}
