// A real D1 for a Node script: Miniflare's local D1 (the same SQLite engine as `wrangler dev`),
// brought to the current schema from migrations/, so sign-in code runs against the tables it
// uses in production rather than a stand-in.
import { readdirSync, readFileSync } from "node:fs";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";

const MIGRATIONS = new URL("../../migrations/", import.meta.url);

/** drizzle-kit writes one statement per `--> statement-breakpoint`; D1 takes them one by one. */
function migrationStatements(): string[][] {
  return readdirSync(MIGRATIONS)
    .filter((name) => name.endsWith(".sql"))
    .sort()
    .map((name) =>
      readFileSync(new URL(name, MIGRATIONS), "utf8")
        .split("--> statement-breakpoint")
        .map((statement) => statement.trim())
        .filter(Boolean),
    );
}

export interface LocalD1 {
  db: D1Database;
  dispose(): Promise<void>;
}

export async function openLocalD1(): Promise<LocalD1> {
  // In-memory storage (no persist path): each run starts empty and leaves nothing behind.
  // Miniflare 5 takes per-worker configs; the converter (as the Workers vitest plugin uses it)
  // accepts the familiar one-worker options.
  const mf = new Miniflare(
    convertV4MiniflareOptions({ modules: true, script: "export default {}", d1Databases: ["DB"] }),
  );
  // Miniflare types its binding with its own copy of the Workers types; the shape is D1's.
  const db = (await mf.getD1Database("DB")) as unknown as D1Database;
  for (const statements of migrationStatements())
    await db.batch(statements.map((sql) => db.prepare(sql)));
  return { db, dispose: () => mf.dispose() };
}
