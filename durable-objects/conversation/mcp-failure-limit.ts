// The failure limit of a conversation's MCP servers: a server that failed `threshold` times in a
// row (within a turn or across turns: the count is kept in the DO's storage) is skipped for a
// cool-down, then tried once more. Only contact with the server moves the count: a catalog read
// from cache says nothing about whether the server works (circuit-breaker.ts does the arithmetic).
// Counted per server as configured: one the user edited (to fix it: its address, its headers)
// starts afresh.
import {
  type BreakerOptions,
  type BreakerState,
  breakerAllows,
  closedBreaker,
  recordFailure,
  recordSuccess,
} from "../mcp/circuit-breaker";
import type { ServerConfig } from "./mcp-servers";
import type { ConversationStore } from "./store";

type Server = Pick<ServerConfig, "name" | "url" | "editedAt">;

export interface FailureLimit {
  /** Null when the server may be called; otherwise why not ("'x' failed 3 times … for 20 s"). */
  skipped(server: Server): string | null;
  /** The server answered: its failures in a row start again from none. */
  succeeded(server: Server): void;
  /** Counts one failure; when it made the server skipped, its failures so far and for how long. */
  failed(server: Server): { failures: number; skippedForS: number } | null;
}

export function failureLimit(
  store: Pick<ConversationStore, "getMeta" | "setMeta">,
  opts: BreakerOptions,
  now: () => number = Date.now,
): FailureLimit {
  const key = (s: Server) => `breaker:${s.name}:${s.url}:${s.editedAt ?? 0}`;
  const read = (server: Server): BreakerState => {
    const raw = store.getMeta(key(server));
    return raw ? (JSON.parse(raw) as BreakerState) : closedBreaker();
  };
  const write = (server: Server, state: BreakerState) =>
    store.setMeta(key(server), JSON.stringify(state));
  const seconds = (ms: number) => Math.ceil(ms / 1000);
  return {
    skipped(server) {
      const state = read(server);
      const d = breakerAllows(state, now(), opts);
      return d.allow
        ? null
        : `'${server.name}' failed ${state.failures} times in a row and is skipped for ${seconds(d.retryInMs)} s`;
    },
    succeeded(server) {
      write(server, recordSuccess(read(server)));
    },
    failed(server) {
      const state = recordFailure(read(server), now(), opts);
      write(server, state);
      return state.openedAt === null
        ? null
        : { failures: state.failures, skippedForS: seconds(opts.cooldownMs) };
    },
  };
}
