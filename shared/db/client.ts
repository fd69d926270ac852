import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

const instances = new WeakMap<D1Database, ReturnType<typeof build>>();
const build = (d1: D1Database) => drizzle(d1, { schema });

/**
 * The drizzle client of a D1 binding, made once per binding: drizzle works out the schema's
 * relations each time a client is made, which cost every request a few milliseconds of CPU.
 */
export function createDb(d1: D1Database) {
  let db = instances.get(d1);
  if (!db) {
    db = build(d1);
    instances.set(d1, db);
  }
  return db;
}
export type Db = ReturnType<typeof createDb>;
