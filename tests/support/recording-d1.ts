// A D1 binding that notes round trips (each statement run on its own, each batch) as they start
// and as they answer, for tests that check which reads wait for which. The binding is shared: in
// a shared runtime, an earlier test's conversation may still be writing its title or summary
// through it. So only the trips made for the test's own rows are noted: those that bind one of
// the values it names (its conversation's id, its user's id, its token's hash: see keysOf).
import { sha256Hex } from "../../workers/api/src/auth/crypto";
import type { TestUser } from "./helpers";

export interface D1Trip {
  /** The statements of the round trip (one, or a batch's). */
  sql: string[];
  /** Ticks of one clock shared by all trips: which started before which answered. */
  started: number;
  /** When it answered; null while in flight. */
  answered: number | null;
}

const RUNS = new Set<PropertyKey>(["first", "all", "run", "raw"]);
type Method = (...args: unknown[]) => unknown;
/** A statement as the recorder knows it: its SQL and the values bound to it. */
interface Known {
  sql: string;
  values: unknown[];
}

/**
 * `real`, with the round trips that bind any of `of` noted in `trips`. `of` must name what the
 * test made (ids, a token's hash): other tests' trips go by unnoted.
 */
export function recordingD1(
  real: D1Database,
  of: readonly string[],
): { db: D1Database; trips: D1Trip[] } {
  if (of.length === 0) throw new Error("recordingD1: name the test's ids, or it notes any trip");
  const mine = new Set<unknown>(of);
  const trips: D1Trip[] = [];
  let clock = 0;
  /** The real statement behind each recording one, and what it binds (batches take real ones). */
  const behind = new WeakMap<object, Known & { stmt: D1PreparedStatement }>();
  const timed = async <T>(stmts: Known[], run: () => Promise<T>): Promise<T> => {
    const ours = stmts.some((s) => s.values.some((v) => mine.has(v)));
    const trip: D1Trip = { sql: stmts.map((s) => s.sql), started: ++clock, answered: null };
    if (ours) trips.push(trip);
    try {
      return await run();
    } finally {
      trip.answered = ++clock;
    }
  };
  // Native objects: every method is called on the real object, never on the proxy.
  const statement = (stmt: D1PreparedStatement, known: Known): D1PreparedStatement => {
    const wrapped = new Proxy(stmt, {
      get(target, key) {
        if (key === "bind")
          return (...values: unknown[]) =>
            statement(target.bind(...values), { sql: known.sql, values });
        const value: unknown = Reflect.get(target, key, target);
        if (typeof value !== "function") return value;
        if (RUNS.has(key))
          return (...args: unknown[]) =>
            timed([known], () => (value as Method).apply(target, args) as Promise<unknown>);
        return (value as Method).bind(target);
      },
    });
    behind.set(wrapped, { ...known, stmt });
    return wrapped;
  };
  const db = new Proxy(real, {
    get(target, key) {
      if (key === "prepare")
        return (sql: string) => statement(target.prepare(sql), { sql, values: [] });
      if (key === "batch")
        return (stmts: D1PreparedStatement[]) =>
          timed(
            stmts.map((s) => behind.get(s) ?? { sql: "(unknown)", values: [] }),
            () => target.batch(stmts.map((s) => behind.get(s)?.stmt ?? s)),
          );
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? (value as Method).bind(target) : value;
    },
  });
  return { db, trips };
}

/** What the trips made for `user` bind: their id, their tokens' hash and ids; and `ids`. */
export async function keysOf(db: D1Database, user: TestUser, ...ids: string[]): Promise<string[]> {
  const tokens = await db
    .prepare("SELECT id FROM api_tokens WHERE user_id = ?")
    .bind(user.id)
    .all<{ id: string }>();
  return [user.id, await sha256Hex(user.token), ...tokens.results.map((t) => t.id), ...ids];
}
