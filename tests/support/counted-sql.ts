// An object's SQLite with every statement shown to `seen` before it runs: tests count what a
// piece of storage code writes or reads.
export function countedSql(sql: SqlStorage, seen: (query: string) => void): SqlStorage {
  return new Proxy(sql, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (key !== "exec" || typeof value !== "function") return value;
      return (query: string, ...bindings: unknown[]) => {
        seen(query);
        return target.exec(query, ...bindings);
      };
    },
  });
}
