// A D1 binding that notes every round trip (each statement run on its own, each batch) as it
// starts and as it answers, for tests that check which reads wait for which.
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

export function recordingD1(real: D1Database): { db: D1Database; trips: D1Trip[] } {
  const trips: D1Trip[] = [];
  let clock = 0;
  /** The real statement behind each recording one, and its SQL (batches take real ones). */
  const behind = new WeakMap<object, { stmt: D1PreparedStatement; sql: string }>();
  const timed = async <T>(sql: string[], run: () => Promise<T>): Promise<T> => {
    const trip: D1Trip = { sql, started: ++clock, answered: null };
    trips.push(trip);
    try {
      return await run();
    } finally {
      trip.answered = ++clock;
    }
  };
  // Native objects: every method is called on the real object, never on the proxy.
  const statement = (stmt: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const wrapped = new Proxy(stmt, {
      get(target, key) {
        if (key === "bind") return (...values: unknown[]) => statement(target.bind(...values), sql);
        const value: unknown = Reflect.get(target, key, target);
        if (typeof value !== "function") return value;
        if (RUNS.has(key))
          return (...args: unknown[]) =>
            timed([sql], () => (value as Method).apply(target, args) as Promise<unknown>);
        return (value as Method).bind(target);
      },
    });
    behind.set(wrapped, { stmt, sql });
    return wrapped;
  };
  const db = new Proxy(real, {
    get(target, key) {
      if (key === "prepare") return (sql: string) => statement(target.prepare(sql), sql);
      if (key === "batch")
        return (stmts: D1PreparedStatement[]) =>
          timed(
            stmts.map((s) => behind.get(s)?.sql ?? "(unknown)"),
            () => target.batch(stmts.map((s) => behind.get(s)?.stmt ?? s)),
          );
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? (value as Method).bind(target) : value;
    },
  });
  return { db, trips };
}
